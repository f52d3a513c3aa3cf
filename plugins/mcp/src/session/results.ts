// What a server's answers become before anyone else reads them: a tools/call result, a
// completion, the server's own description, and the progress option a call passes the client.
import {
  type CallOptions,
  type CompletionResult,
  McpCallError,
  type McpSession,
  type RemoteCallResult,
} from "../mcp-session.js";

/**
 * The one conversion of a raw `tools/call` result into our RemoteCallResult, for both call
 * paths (the connection's unparsed answer and the SDK client's parsed one). Only the envelope is
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

/** At most this many values are handed on (the spec caps a response at 100). */
const MAX_VALUES = 100;

/** A server's `completion` as we hand it on: strings only, at most 100, the counts if numbers. */
export function completionOf(raw: unknown): CompletionResult {
  const { values, total, hasMore } = (raw ?? {}) as Record<string, unknown>;
  const result: CompletionResult = {
    values: Array.isArray(values)
      ? values.filter((value): value is string => typeof value === "string").slice(0, MAX_VALUES)
      : [],
  };
  if (typeof total === "number") result.total = total;
  if (typeof hasMore === "boolean") result.hasMore = hasMore;
  return result;
}

/**
 * The server's `serverInfo` from `initialize` (or `server/discover`) as a session hands it on,
 * the same from either era's client: name and version, and the title only when it has one.
 */
export function serverInfoOf(
  info: { name: string; version: string; title?: string | undefined } | undefined,
): McpSession["serverInfo"] {
  return info
    ? { name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) }
    : undefined;
}

/** The SDK request option that hands a call's progress notifications to its listener, if any. */
export function progressOption(options: CallOptions) {
  const listener = options.onProgress;
  if (!listener) return {};
  return {
    onprogress: (progress: {
      progress: number;
      total?: number | undefined;
      message?: string | undefined;
    }) =>
      listener({
        progress: progress.progress,
        ...(progress.total !== undefined ? { total: progress.total } : {}),
        ...(progress.message !== undefined ? { message: progress.message } : {}),
      }),
  };
}
