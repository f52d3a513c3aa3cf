import { estimateRequestTokens } from "../context/token-estimate.js";
import type { Provider } from "../contracts/provider.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import type { ToolSearchEngineInUse } from "../contracts/tool-search-types.js";
import { ConfigError } from "../errors.js";
import { TOOL_SEARCH_TOOL_NAME } from "./search-tool.js";
import type { ToolSearchSettings } from "./tool-search-options.js";

/** Where a tool stands in a conversation: sent up front, known to search only, or found. */
export type ToolState = "loaded" | "deferred" | "found";

/** What the model is offered on one request, decided in one place. */
export interface ToolOffer {
  engine: ToolSearchEngineInUse;
  /** Sent up front on every request (the search tool and found tools are not among them). */
  loaded: readonly ToolDefinition[];
  /** Known to the search only, not found yet. */
  deferred: readonly ToolDefinition[];
  /** Found by search in this conversation, in the order found. */
  found: readonly ToolDefinition[];
  /** Our search tool, when `engine` is `local`. */
  searchTool: ToolDefinition | undefined;
  /**
   * A request's `tools`: loaded, then (`local`) the search tool and the found tools, so what
   * search adds never moves what came before it.
   */
  sent: readonly ToolDefinition[];
  /** Why tools are deferred (or not), for `tools --json` and the studio. */
  reason: string;
}

/** What the offer is decided from. */
export interface OfferInput {
  /** What the policy offers, in registry order (the search tool, if there, is set aside). */
  offered: readonly ToolDefinition[];
  /** Our search tool's definition, undefined when the policy does not offer it. */
  searchTool: ToolDefinition | undefined;
  /** Names found so far in the conversation, in the order found. */
  found: readonly string[];
  settings: ToolSearchSettings;
  provider: Provider | undefined;
  /** The model's context window (configured, else the provider's). */
  contextWindow: number | undefined;
  /** Estimated tokens of definitions (the context manager's estimate). */
  estimate(tools: readonly ToolDefinition[]): number;
}

/**
 * Decide the offer. Built-in tools, skills and sub-agents (no `deferLoading`) are always
 * loaded, so are pinned tools; `deferLoading: true` tools are deferred whenever search is on;
 * `"auto"` tools (MCP's default) are deferred in `always` mode, and in `auto` mode once the
 * offered set passes the provider's tool limit or its share of the context window.
 */
export function decideOffer(input: OfferInput): ToolOffer {
  const { settings, provider } = input;
  const { searchTool } = input;
  const offered = input.offered.filter((tool) => tool.name !== TOOL_SEARCH_TOOL_NAME);
  const none = (reason: string): ToolOffer => ({
    engine: "none",
    loaded: offered,
    deferred: [],
    found: [],
    searchTool: undefined,
    sent: offered,
    reason,
  });
  if (settings.mode === "never") return none("tool search is off (mode never)");
  const loaded: ToolDefinition[] = [];
  const deferred: ToolDefinition[] = [];
  const candidates: ToolDefinition[] = [];
  for (const tool of offered) {
    if (settings.pin.some((pattern) => pattern.matchesTool(tool))) loaded.push(tool);
    else if (tool.deferLoading === true) deferred.push(tool);
    else if (tool.deferLoading === "auto") candidates.push(tool);
    else loaded.push(tool);
  }
  let reason = "";
  if (candidates.length > 0) {
    if (settings.mode === "always") reason = "mode always";
    else {
      const maxTools = settings.maxTools ?? provider?.maxTools;
      const budget =
        input.contextWindow !== undefined
          ? Math.floor(input.contextWindow * settings.contextShare)
          : settings.tokens;
      const tokens = input.estimate(offered);
      if (maxTools !== undefined && offered.length > maxTools)
        reason = `${offered.length} tools offered, more than ${provider?.name ?? "the"} limit of ${maxTools}`;
      else if (tokens > budget)
        reason = `tool definitions ~${tokens} tokens, over ${budget} (${input.contextWindow !== undefined ? `${Math.round(settings.contextShare * 100)}% of a ${input.contextWindow}-token window` : "no context window known"})`;
    }
    if (reason) deferred.push(...candidates);
    else loaded.push(...candidates);
  }
  if (deferred.length === 0)
    return none(
      candidates.length > 0 ? "the offered tools fit under the threshold" : "no deferrable tools",
    );
  if (deferred.length !== candidates.length || !reason)
    reason = reason
      ? `${reason}; ${deferred.length - candidates.length} tools ask to be deferred`
      : `${deferred.length} tools ask to be deferred`;
  const engine = chooseEngine(settings, provider);
  if (engine === "local" && !searchTool)
    // The policy hides the search tool (an allow-list without it): nothing could be found.
    return none("the policy does not offer tool_search, so every tool is sent");
  const foundNames = new Set(input.found);
  const byName = new Map(deferred.map((tool) => [tool.name, tool]));
  const found = input.found.flatMap((name) => {
    const tool = byName.get(name);
    return tool ? [tool] : [];
  });
  const notFound = deferred.filter((tool) => !foundNames.has(tool.name));
  const sent = engine === "local" ? [...loaded, searchTool!, ...found] : loaded;
  return {
    engine,
    loaded,
    deferred: notFound,
    found,
    searchTool: engine === "local" ? searchTool : undefined,
    sent,
    reason,
  };
}

function chooseEngine(
  settings: ToolSearchSettings,
  provider: Provider | undefined,
): "provider" | "local" {
  if (settings.engine === "local") return "local";
  const native = provider?.nativeToolSearch === true;
  if (settings.engine === "provider" && !native)
    throw new ConfigError(
      "config_invalid",
      `tool_search.engine is "provider", but the ${provider?.name ?? "(none)"} provider${provider?.model ? ` (${provider.model})` : ""} has no tool search of its own; use engine "auto" or "local".`,
      { details: { option: "tool_search.engine", provider: provider?.name } },
    );
  return native ? "provider" : "local";
}

/** Each offered tool's state in an offer. */
export function toolStates(offer: ToolOffer): Map<string, ToolState> {
  const states = new Map<string, ToolState>();
  for (const tool of offer.loaded) states.set(tool.name, "loaded");
  if (offer.searchTool) states.set(offer.searchTool.name, "loaded");
  for (const tool of offer.deferred) states.set(tool.name, "deferred");
  for (const tool of offer.found) states.set(tool.name, "found");
  return states;
}

/** An offer in numbers, as the CLI, chat and the studio report it. */
export interface ToolOfferSummary {
  engine: ToolSearchEngineInUse;
  /** Why tools are deferred, or why none are. */
  reason: string;
  /** How many offered tools are in each state (the search tool counts as loaded). */
  loaded: number;
  deferred: number;
  found: number;
  /**
   * Estimated tokens of the definitions the next request sends, and of every offered
   * definition (what it would send with tool search off).
   */
  tokens: { sent: number; all: number };
}

/**
 * Count an offer. Tokens are the kernel's plain estimate (before any calibration by what a
 * provider counted), so every surface reports the same number for the same tools.
 */
export function summarizeToolOffer(offer: ToolOffer): ToolOfferSummary {
  const counts = { loaded: 0, deferred: 0, found: 0 };
  for (const state of toolStates(offer).values()) counts[state]++;
  const estimate = (tools: readonly ToolDefinition[]) =>
    estimateRequestTokens({ system: "", messages: [], tools });
  return {
    engine: offer.engine,
    reason: offer.reason,
    ...counts,
    tokens: {
      sent: estimate(offer.sent),
      all: estimate([...offer.loaded, ...offer.found, ...offer.deferred]),
    },
  };
}

export type { ToolSearchEngineInUse } from "../contracts/tool-search-types.js";
