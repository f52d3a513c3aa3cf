import type { ToolDefinition } from "./tool-definition.js";

/** What one search answers. */
export interface ToolSearchOutcome {
  /** The tools it loaded: sent from the next request on. */
  found: readonly ToolDefinition[];
  /** Weaker matches it did not load, for the model to load by name (`select:`). */
  others: readonly ToolDefinition[];
  /** Tools the search looked through. */
  searched: number;
}

/**
 * What a tool may do with the conversation it runs in: search its deferred tools and load
 * what it finds. Only the search tool uses it; an agent hands it to every call.
 */
export interface ToolSearchCapability {
  search(query: string, limit: number | undefined): Promise<ToolSearchOutcome>;
}

/**
 * Who searches the deferred tools this turn: `none` (nothing is deferred), `provider` (the
 * API's own search), `local` (our `tool_search` tool).
 */
export type ToolSearchEngineInUse = "none" | "provider" | "local";
