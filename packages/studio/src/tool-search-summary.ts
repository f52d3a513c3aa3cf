import {
  estimateRequestTokens,
  type ToolDefinition,
  type ToolOffer,
  type ToolSearchEngineInUse,
  type ToolState,
} from "@pseudoclaude/core";

/** `GET /api/tools` `toolSearch`: who searches, why, the tools per state and their tokens. */
export interface StudioToolSearch {
  engine: ToolSearchEngineInUse;
  /** Why tools are deferred, or why none are. */
  reason: string;
  /** Offered tools per state; they add up to the offered tools (the search tool is loaded). */
  loaded: number;
  deferred: number;
  found: number;
  /**
   * Estimated tokens of the definitions the next request sends, and of every offered
   * definition (what it would send with tool search off).
   */
  tokens: { sent: number; all: number };
}

/** The agent's offer (`Agent.toolOffer()`) as the Tools page shows it: the summary and states. */
export function toolSearchSummary(offer: ToolOffer): {
  summary: StudioToolSearch;
  states: ReadonlyMap<string, ToolState>;
} {
  const states = offerStates(offer);
  const counts = { loaded: 0, deferred: 0, found: 0 };
  for (const state of states.values()) counts[state]++;
  return {
    summary: {
      engine: offer.engine,
      reason: offer.reason,
      ...counts,
      tokens: {
        sent: definitionTokens(offer.sent),
        // Everything the policy offers, the search tool aside: what "never" would send.
        all: definitionTokens([...offer.loaded, ...offer.found, ...offer.deferred]),
      },
    },
    states,
  };
}

/**
 * Each offered tool's state, by the kernel's rule: the search tool is loaded, a found tool is
 * found (never deferred). The kernel's own `toolStates` is not exported from its package.
 */
function offerStates(offer: ToolOffer): Map<string, ToolState> {
  const states = new Map<string, ToolState>();
  for (const tool of offer.loaded) states.set(tool.name, "loaded");
  if (offer.searchTool) states.set(offer.searchTool.name, "loaded");
  for (const tool of offer.deferred) states.set(tool.name, "deferred");
  for (const tool of offer.found) states.set(tool.name, "found");
  return states;
}

/**
 * The kernel's estimate (about four characters a token), before any calibration by what a
 * provider counted: the figure `pseudoclaude tools` reports for the same tools.
 */
function definitionTokens(tools: readonly ToolDefinition[]): number {
  return estimateRequestTokens({ system: "", messages: [], tools });
}
