import { McpCallError, type RemoteCallResult } from "./mcp-session.js";

/**
 * The one conversion of a raw `tools/call` result into our RemoteCallResult, for both call
 * paths (the channel's unparsed answer and the SDK client's parsed one). Only the envelope is
 * checked: content blocks are judged one by one later, so one odd block does not sink a result.
 */
export function toRemoteCallResult(raw: unknown): RemoteCallResult {
  const result = raw as Record<string, unknown> | null | undefined;
  if (
    !result ||
    typeof result !== "object" ||
    (result.content !== undefined && !Array.isArray(result.content))
  ) {
    throw new McpCallError("protocol", "The server answered tools/call with a malformed result.");
  }
  const out: RemoteCallResult = {
    content: (result.content ?? []) as RemoteCallResult["content"],
  };
  if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
  if (result.isError === true) out.isError = true;
  if (result._meta && typeof result._meta === "object")
    out.meta = result._meta as Record<string, unknown>;
  return out;
}
