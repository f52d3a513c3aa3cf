import {
  extractWWWAuthenticateParams,
  auth as sdkAuth,
  withDpopFromProvider,
} from "@modelcontextprotocol/client";
import type { HttpServerConfig } from "../config/server-config.js";
import { type McpServerErrorCode, ToolSourceError } from "../mcp-errors.js";
import type { DialOptions } from "../mcp-session.js";
import { authorize, authProviderFor, oauthSteps } from "./login.js";

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A login asked for by the era probe: the server answered `server/discover` with 401, so which
 * era it speaks is known only once we hold a token. OAuth is the same in both eras; the SDK's
 * auth() runs it as the 1.x transport would on a 401 (discovery from the challenge, registration,
 * the person's login through the authorizer, with our issuer checks), without a transport.
 * Returns a fetch that presents the token (as Bearer, or DPoP with a proof) to ask again with,
 * or undefined when nobody can log in now (the 2025 path then says the server needs a login).
 */
export async function loginFromProbe(
  server: HttpServerConfig,
  options: DialOptions,
  challenge: string | undefined,
): Promise<Fetch | undefined> {
  const provider = authProviderFor(server, options);
  if (!provider) return undefined;
  const steps = oauthSteps(server.url);
  // A token bound to a DPoP key goes out with a proof per request (the SDK's middleware).
  const dpop = (next: Fetch): Fetch =>
    provider.dpop ? withDpopFromProvider(provider)(next) : next;
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(
    new Response(null, {
      status: 401,
      headers: challenge ? { "www-authenticate": challenge } : {},
    }),
  );
  const run = (authorizationCode?: string, iss?: string) =>
    sdkAuth(provider, {
      serverUrl: server.url,
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      ...(scope ? { scope } : {}),
      ...(authorizationCode ? { authorizationCode } : {}),
      ...(iss ? { iss } : {}),
      fetchFn: steps.fetch,
    });
  let result: Awaited<ReturnType<typeof run>>;
  try {
    result = await run();
  } catch (error) {
    const step = steps.describe();
    throw new ToolSourceError<McpServerErrorCode>(
      "connect_failed",
      `Logging in to "${server.name}" failed: ${error instanceof Error ? error.message : String(error)}${step ? ` (${step})` : ""}`,
      { cause: error },
    );
  }
  if (result !== "AUTHORIZED") {
    const finished = await authorize(
      server,
      options,
      provider,
      async (code, iss) => {
        if ((await run(code, iss)) !== "AUTHORIZED")
          throw new Error("the authorization server issued no token for the code");
      },
      steps,
    );
    if (!finished) return undefined;
  }
  if (!(await provider.tokens())) return undefined;
  const presented = dpop(fetch);
  return async (input, init) => {
    const tokens = await provider.tokens();
    const headers = new Headers(init?.headers);
    if (tokens) headers.set("authorization", `Bearer ${tokens.access_token}`);
    return presented(input, { ...init, headers });
  };
}
