import { auth as runOAuth } from "@modelcontextprotocol/client";
import type { McpServerConfig } from "../config/server-config.js";
import { type McpServerErrorCode, ToolSourceError } from "../mcp-errors.js";
import type { DialOptions } from "../mcp-session.js";
import { askAuthorizer } from "./ask-authorizer.js";
import { defaultCredentialStore } from "./credential-store.js";
import { checkResponseIssuer } from "./issuer-checks.js";
import { oauthProviderFor } from "./oauth-provider.js";
import { OAuthStepRecorder } from "./oauth-steps.js";

/**
 * A person's login to a remote server, in both eras, on the SDK's auth functions: which servers
 * use OAuth, the authorization URL handed to the authorizer and the code it brings back (with
 * our issuer check), and a login begun again when a session's token is refused. What the wire
 * does with a 401 on a request is the HTTP transport's (wire/http-access.ts); what finishes a
 * login on an open transport is handed in. Loaded with the first remote server.
 */

export type OAuthProvider = ReturnType<typeof oauthProviderFor>;

/** Every http and sse server may answer 401; one that sends its own Authorization header does not use OAuth. */
export function authProviderFor(
  server: McpServerConfig,
  options: DialOptions,
): OAuthProvider | undefined {
  if (server.transport === "stdio") return undefined;
  const ownAuthorization = Object.keys(server.headers).some(
    (name) => name.toLowerCase() === "authorization",
  );
  if (ownAuthorization && !server.oauth) return undefined;
  return oauthProviderFor(
    server.url,
    server.oauth ?? { grant: "authorization_code" },
    options.credentials ?? defaultCredentialStore(),
    options.redirectUri,
  );
}

export function oauthSteps(serverUrl: string): OAuthStepRecorder {
  return new OAuthStepRecorder(serverUrl);
}

/**
 * The server wants a person to log in: hand the authorization URL to the authorizer, check the
 * issuer its redirect names, and `finish` with the code (and issuer) it brings back (the transport's
 * finishAuth, or the SDK's auth() when no transport is open yet). False when nobody can (no
 * authorizer, no code).
 */
export async function authorize(
  server: McpServerConfig,
  options: DialOptions,
  auth: OAuthProvider,
  finish: (code: string, iss: string | undefined) => Promise<void>,
  steps?: OAuthStepRecorder,
): Promise<boolean> {
  const answer = await askAuthorizer(server, options, auth);
  if (!answer) return false;
  const { params, bare } = answer;
  const code = params.get("code");
  try {
    if (!code) {
      const error = params.get("error");
      if (!error) return false;
      throw new Error(
        `the authorization server answered ${error}${params.get("error_description") ? `: ${params.get("error_description")}` : ""}`,
      );
    }
    const iss = params.get("iss") ?? undefined;
    checkResponseIssuer(iss, (await auth.discoveryState?.())?.authorizationServerMetadata, bare);
    await finish(code, iss);
  } catch (error) {
    const step = steps?.describe();
    throw new ToolSourceError<McpServerErrorCode>(
      "connect_failed",
      `Logging in to "${server.name}" failed: ${error instanceof Error ? error.message : String(error)}${step ? ` (${step})` : ""}`,
      { cause: error },
    );
  }
  return true;
}

/**
 * A token refused in the middle of a session, after the client's own refresh: the server may
 * have moved to another authorization server, so what discovery found is dropped (the SDK
 * leaves that to its host) and the login starts over from the server's metadata. Credentials
 * stamped with the old issuer are not used at the new one; the client registers there anew.
 */
export async function loginAgain(
  server: McpServerConfig,
  options: DialOptions,
  auth: OAuthProvider,
  finish: (code: string, iss: string | undefined) => Promise<void>,
  steps?: OAuthStepRecorder,
): Promise<boolean> {
  if (server.transport === "stdio") return false;
  // A step-up (403 insufficient_scope) left the login the transport began, with the scope the
  // server asked for: the new login asks for that scope too.
  const scope = auth.pendingAuthorization?.searchParams.get("scope") ?? undefined;
  await auth.invalidateCredentials?.("discovery");
  auth.pendingAuthorization = undefined;
  const started = await runOAuth(auth, {
    serverUrl: server.url,
    ...(scope ? { scope } : {}),
  });
  if (started === "AUTHORIZED") return true;
  return authorize(server, options, auth, finish, steps);
}
