import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * What a session asks about a remote server's transport and errors, answered by sdk-http.ts,
 * which is loaded only with the first remote server. A stdio session has none.
 */
export interface RemoteSupport {
  /** The Streamable HTTP session id, when the transport is one and has one. */
  sessionIdOf(transport: Transport): string | undefined;
  /** Whether our JSON-RPC channel carries plain calls over it (Streamable HTTP, not SSE). */
  carriesCalls(transport: Transport): boolean;
  /** The SDK's "authorization failed" error. */
  isUnauthorized(error: unknown): boolean;
  /** The HTTP status of the SDK transport's error for a refused request. */
  httpStatusOf(error: unknown): number | undefined;
  /** End the server's session (HTTP DELETE), when there is one. */
  terminateSession(transport: Transport): Promise<void>;
}
