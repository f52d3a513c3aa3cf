import { auth as runOAuth, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { McpServerConfig } from "../config/server-config.js";
import { askAuthorizer } from "../oauth/ask-authorizer.js";
import type { DialOptions } from "./mcp-session.js";

/**
 * The 2026 era over Streamable HTTP: the v2 client's transport with the server's headers and our
 * OAuth client (the same provider and stored tokens as the 2025 path), and the logins the v2
 * client leaves to its host.
 */

export type OAuthProvider = NonNullable<Awaited<ReturnType<typeof authFor>>>;

/** The server's OAuth client (the same provider and stored tokens as the 2025 path). */
export async function authFor(server: McpServerConfig, options: DialOptions) {
  const { authProviderFor } = await import("./sdk-http.js");
  return authProviderFor(server, options);
}

/** The v2 client's Streamable HTTP transport, with the server's headers and OAuth client. */
export function modernHttpTransport(
  server: McpServerConfig,
  auth: OAuthProvider | undefined,
): StreamableHTTPClientTransport {
  if (server.transport === "stdio") throw new Error("a stdio server needs its own transport");
  return new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: server.headers },
    ...(auth ? { authProvider: auth as never } : {}),
  });
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
  provider: OAuthProvider,
  transport: StreamableHTTPClientTransport,
): Promise<boolean> {
  if (server.transport === "stdio") return false;
  await provider.invalidateCredentials?.("discovery");
  provider.pendingAuthorization = undefined;
  if ((await runOAuth(provider as never, { serverUrl: server.url })) === "AUTHORIZED") return true;
  return authorizeModern(server, options, provider, transport);
}

/**
 * A person logs in: the authorization URL the v2 client produced goes to the authorizer, and
 * the redirect's query comes back to the transport (which checks its `iss`). False when nobody
 * can (no authorizer, no URL, no answer).
 */
export async function authorizeModern(
  server: McpServerConfig,
  options: DialOptions,
  auth: OAuthProvider,
  transport: StreamableHTTPClientTransport,
): Promise<boolean> {
  const answer = await askAuthorizer(server, options, auth);
  if (!answer) return false;
  await transport.finishAuth(answer.params);
  return true;
}
