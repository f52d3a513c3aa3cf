import type Anthropic from "@anthropic-ai/sdk";
import type { AnthropicToolSearch } from "./anthropic-options.js";

/** The beta that enables server-side tool search and `defer_loading`. */
export const TOOL_SEARCH_BETA = "advanced-tool-use-2025-11-20";

/** The search tool as a request declares it. */
export type SearchToolParam =
  | Anthropic.ToolSearchToolBm25_20251119
  | Anthropic.ToolSearchToolRegex20251119;

/** The API's search tool of a variant. Never deferred: it is how the model finds the rest. */
export function searchToolParam(variant: AnthropicToolSearch): SearchToolParam {
  return variant === "regex"
    ? { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" }
    : { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" };
}

/**
 * The `anthropic-beta` header of a request with tool search: the beta added to the betas the
 * caller's own headers ask for, since a request-level header replaces the client's.
 */
export function toolSearchBetaHeader(
  configured: Readonly<Record<string, string>> | undefined,
): string {
  const own = Object.entries(configured ?? {}).find(
    ([name]) => name.toLowerCase() === "anthropic-beta",
  )?.[1];
  const betas = (own ?? "")
    .split(",")
    .map((beta) => beta.trim())
    .filter(Boolean);
  if (!betas.includes(TOOL_SEARCH_BETA)) betas.push(TOOL_SEARCH_BETA);
  return betas.join(",");
}

/**
 * Wire names of the tools the conversation's search results still reference. A found tool the
 * API can load from one of them is sent deferred; one whose result was compacted away is sent
 * loaded, or the model could no longer call it.
 */
export function referencedTools(messages: readonly Anthropic.MessageParam[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type !== "tool_search_tool_result") continue;
      if (block.content.type !== "tool_search_tool_search_result") continue;
      for (const reference of block.content.tool_references) names.add(reference.tool_name);
    }
  }
  return names;
}

/** What a search call asked: the BM25 query, or the regex variant's pattern. */
export function searchQuery(input: unknown): string {
  if (input && typeof input === "object") {
    const { query, pattern } = input as { query?: unknown; pattern?: unknown };
    if (typeof query === "string") return query;
    if (typeof pattern === "string") return pattern;
  }
  return JSON.stringify(input ?? {});
}
