import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { McpCallError } from "./mcp-session.js";

/** SDK failures as our call-error reasons (they go to \`metadata.reason\`). */
export function classifyError(error: unknown): McpCallError {
  if (error instanceof McpCallError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof McpError) {
    if (error.code === ErrorCode.ConnectionClosed)
      return new McpCallError("session", message, { cause: error });
    if (error.code === ErrorCode.RequestTimeout)
      return new McpCallError("cancelled", message, { cause: error });
    return new McpCallError("protocol", message, { cause: error });
  }
  if (/not connected/i.test(message)) return new McpCallError("session", message, { cause: error });
  if (error instanceof Error && error.name === "AbortError")
    return new McpCallError("cancelled", message, { cause: error });
  return new McpCallError("transport", message, { cause: error });
}

/** v2 failures as our call-error reasons: the caller's abort first, then what the SDK said. */
export function classifyModernError(error: unknown, signal: AbortSignal): McpCallError {
  if (error instanceof McpCallError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (signal.aborted) return new McpCallError("cancelled", message, { cause: error });
  const code = (error as { code?: unknown }).code;
  if (typeof code === "number") return new McpCallError("protocol", message, { cause: error });
  if (/not connected|connection closed|closed/i.test(message))
    return new McpCallError("session", message, { cause: error });
  return new McpCallError("transport", message, { cause: error });
}
