import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { McpCallError } from "../mcp-session.js";

/** What a session holds of a remote server: its URL, its HTTP session, its logins. */
export interface SessionRemote {
  url: string;
  /** The Streamable HTTP session id, when there is one. */
  sessionId(): string | undefined;
  /** End the server's session (HTTP DELETE), when there is one. */
  terminate(): Promise<void>;
  /** The transport's "authorization failed" error. */
  isUnauthorized(error: unknown): boolean;
  /** The HTTP status of the transport's error for a refused request. */
  httpStatusOf(error: unknown): number | undefined;
  /** A person logs in again when a request's token is refused (an OAuth server only). */
  reauthorize?: () => Promise<boolean>;
}

/** What judging a failed request needs to know of, and do to, its session. */
export interface FailureContext {
  serverName: string;
  /** The request's signal: a failure after it aborted is a cancellation. */
  signal: AbortSignal;
  remote: SessionRemote | undefined;
  /** The server no longer knows the session: it is reported closed, with this reason. */
  sessionLost(reason: string): void;
}

/**
 * What a failed request means: retried once (`again`, absent on the retry) after a new
 * authorization, a lost HTTP session, or an McpCallError with its reason.
 */
export async function recoverFailure<T>(
  error: unknown,
  again: (() => Promise<T>) | undefined,
  session: FailureContext,
): Promise<T> {
  const { remote } = session;
  if (error instanceof McpCallError || !remote || session.signal.aborted)
    throw classifyError(error, session.signal);
  // A token that no longer covers this request (expired past refresh, or a scope it
  // lacks): authorize once more and retry once; a second refusal is the answer.
  if (remote.isUnauthorized(error)) {
    if (again && (await remote.reauthorize?.())) return again();
    throw new McpCallError(
      "auth",
      `MCP server "${session.serverName}" refused our tokens and they could not be refreshed: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (sessionExpired(error, remote)) {
    // The spec: on 404 for a request with a session id, start a new session. Reporting the
    // session closed makes the connection re-initialize on the next use.
    session.sessionLost("HTTP session expired on the server");
    throw new McpCallError(
      "session",
      `The server no longer knows this session: ${(error as Error).message}`,
      { cause: error, retryable: true },
    );
  }
  throw classifyError(error, session.signal);
}

/**
 * A Streamable HTTP request refused because the server lost our session (it restarted, or
 * the session timed out). The spec says 404; some servers answer 400 "No valid session ID".
 */
function sessionExpired(error: unknown, remote: SessionRemote): boolean {
  if (!remote.sessionId()) return false;
  const status = remote.httpStatusOf(error);
  return status === 404 || (status === 400 && /session/i.test((error as Error).message));
}

/**
 * A failed request as our call-error reason (it goes to `metadata.reason`): the caller's abort
 * first, then what the client or the server said.
 */
export function classifyError(error: unknown, signal?: AbortSignal): McpCallError {
  if (error instanceof McpCallError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const cause = { cause: error };
  if (signal?.aborted) return new McpCallError("cancelled", message, cause);
  if (error instanceof ProtocolError) return new McpCallError("protocol", message, cause);
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected)
      return new McpCallError("session", message, cause);
    if (error.code === SdkErrorCode.RequestTimeout)
      return new McpCallError("cancelled", message, cause);
    if (error.code === SdkErrorCode.InvalidResult || error.code === SdkErrorCode.NotInitialized)
      return new McpCallError("protocol", message, cause);
    return new McpCallError("transport", message, cause);
  }
  if (/not connected|connection closed/i.test(message))
    return new McpCallError("session", message, cause);
  if (error instanceof Error && error.name === "AbortError")
    return new McpCallError("cancelled", message, cause);
  return new McpCallError("transport", message, cause);
}
