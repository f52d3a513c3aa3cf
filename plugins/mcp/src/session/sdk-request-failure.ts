import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { classifyError } from "./classify-error.js";
import { McpCallError } from "./mcp-session.js";
import type { RemoteSupport } from "./remote-support.js";

/** What judging a failed request of an SDK session needs to know of, and do to, the session. */
export interface SdkFailureContext {
  serverName: string;
  transport: Transport;
  /** A remote server's transport and errors (see RemoteSupport); undefined for stdio. */
  remote: RemoteSupport | undefined;
  /** Completes a new authorization when the server asks for one mid-session (step-up). */
  reauthorize: (() => Promise<boolean>) | undefined;
  /** The server no longer knows the session: it is reported closed, with this reason. */
  sessionLost(reason: string): void;
}

/**
 * What a failed request of an SDK session means: retried once (`again`, absent on the retry)
 * after a new authorization, a lost HTTP session, or an McpCallError with its reason.
 */
export async function recoverSdkFailure<T>(
  error: unknown,
  again: (() => Promise<T>) | undefined,
  session: SdkFailureContext,
): Promise<T> {
  // A token that no longer covers this request (expired past refresh, or a scope it
  // lacks): authorize once more and retry once; a second refusal is the answer.
  const unauthorized = session.remote?.isUnauthorized(error) ?? false;
  if (unauthorized && again && session.reauthorize && (await session.reauthorize())) return again();
  if (unauthorized)
    throw new McpCallError(
      "auth",
      `MCP server "${session.serverName}" refused our tokens and they could not be refreshed: ${(error as Error).message}`,
      { cause: error },
    );
  if (sessionExpired(error, session)) {
    // The spec: on 404 for a request with a session id, start a new session. Reporting the
    // session closed makes the connection re-initialize on the next use.
    session.sessionLost("HTTP session expired on the server");
    throw new McpCallError(
      "session",
      `The server no longer knows this session: ${(error as Error).message}`,
      { cause: error, retryable: true },
    );
  }
  throw classifyError(error);
}

/**
 * A Streamable HTTP request refused because the server lost our session (it restarted, or
 * the session timed out). The spec says 404; some servers answer 400 "No valid session ID".
 */
function sessionExpired(error: unknown, session: SdkFailureContext): boolean {
  if (!session.remote?.sessionIdOf(session.transport)) return false;
  const status = session.remote.httpStatusOf(error);
  return status === 404 || (status === 400 && /session/i.test((error as Error).message));
}
