import { SdkHttpError, UnauthorizedError } from "@modelcontextprotocol/client";
import type { McpServerConfig } from "../config/server-config.js";
import type { OAuthProvider } from "../oauth/login.js";
import type { OAuthStepRecorder } from "../oauth/oauth-steps.js";
import type { Era } from "../wire/era.js";
import { HttpTransport } from "../wire/http-transport.js";
import { traceHeadersOf } from "./trace.js";

/**
 * What only remote (http and sse) servers need, in both eras: their transports and the checks
 * on their errors (a login is oauth/login.ts's). Loaded with the first remote server, so an
 * agent of stdio servers never loads the HTTP transports and OAuth code.
 */

export type RemoteTransport = HttpTransport;

/** The transport of a remote server in its era (ours: wire/http-transport.ts). */
export function remoteTransport(
  server: McpServerConfig,
  auth: OAuthProvider | undefined,
  steps: OAuthStepRecorder | undefined,
  era: Era,
): HttpTransport {
  if (server.transport === "stdio") throw new Error("a stdio server has no HTTP transport");
  return new HttpTransport({
    url: new URL(server.url),
    headers: server.headers,
    auth,
    authFetch: steps?.fetch,
    era: era.http,
    legacySse: server.transport === "sse",
    traceHeadersOf,
  });
}

/** The finish of a login on an open transport: its own `finishAuth`. */
export function finishOn(
  transport: RemoteTransport,
): (code: string, iss: string | undefined) => Promise<void> {
  return (code, iss) => transport.finishAuth(code, iss);
}

/** The SDK's "authorization failed" error. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof UnauthorizedError;
}

/** The HTTP status of a transport's error for a refused request. */
export function httpStatusOf(error: unknown): number | undefined {
  return error instanceof SdkHttpError ? error.status : undefined;
}

/** The Streamable HTTP session id, when there is one. */
export function sessionIdOf(transport: RemoteTransport): string | undefined {
  return transport.sessionId;
}

/** End the server's session (HTTP DELETE), when there is one. */
export async function terminateSession(transport: RemoteTransport): Promise<void> {
  await transport.terminateSession();
}
