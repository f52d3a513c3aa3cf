import type { CompletionResult } from "./mcp-session.js";

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
