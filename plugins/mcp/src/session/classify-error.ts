import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { McpCallError } from "./mcp-session.js";

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
