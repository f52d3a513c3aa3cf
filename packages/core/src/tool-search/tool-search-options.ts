import type { ToolDefinition } from "../contracts/tool-definition.js";
import { ConfigError } from "../errors.js";
import { parseRulePattern } from "../policy/rule-pattern.js";

/**
 * When tools are deferred: `auto` once the offered set passes the threshold (or a tool asks to
 * be), `always` every deferrable tool, `never` none (every definition sent on every request).
 */
export const TOOL_SEARCH_MODES = ["auto", "always", "never"] as const;
export type ToolSearchMode = (typeof TOOL_SEARCH_MODES)[number];

/**
 * Who searches the deferred tools: `auto` the provider's own search where it has one, ours
 * elsewhere; `provider` the provider's own (a provider without one is a ConfigError); `local`
 * ours, a `tool_search` tool the registry runs like any other.
 */
export const TOOL_SEARCH_ENGINES = ["auto", "provider", "local"] as const;
export type ToolSearchEngine = (typeof TOOL_SEARCH_ENGINES)[number];

/** `createAgent({ toolSearch })`: a mode, or the mode with its settings. */
export interface ToolSearchOptions {
  /** Default `auto`. */
  mode?: ToolSearchMode | undefined;
  /** Default `auto`. */
  engine?: ToolSearchEngine | undefined;
  /** Tool name patterns (`mcp__github__create_issue`, `mcp__docs__*`) always sent in full. */
  pin?: readonly string[] | undefined;
  /** Matches one search returns at most. Default 5. */
  maxResults?: number | undefined;
  /**
   * `auto` defers once the offered definitions pass this share of the model's context window,
   * in estimated tokens. Default 0.1.
   */
  contextShare?: number | undefined;
  /**
   * `auto` defers once the offered definitions pass this many estimated tokens when the model's
   * context window is unknown. Default 20,000 (a tenth of a 200k window).
   */
  tokens?: number | undefined;
  /**
   * `auto` defers once more tools than this are offered. Default: the provider's own limit
   * (`Provider.maxTools`, 128 for OpenAI), none for a provider without one.
   */
  maxTools?: number | undefined;
}

/** A pin, parsed: whether it names a tool (by its name or an alias, globs allowed). */
export interface ToolPin {
  /** The pattern as written. */
  raw: string;
  matchesTool(tool: Pick<ToolDefinition, "name" | "aliases">): boolean;
}

/** Every setting with its default applied, the pins parsed. */
export interface ToolSearchSettings {
  mode: ToolSearchMode;
  engine: ToolSearchEngine;
  pin: readonly ToolPin[];
  maxResults: number;
  contextShare: number;
  tokens: number;
  maxTools: number | undefined;
}

export const DEFAULT_TOOL_SEARCH_RESULTS = 5;
export const DEFAULT_TOOL_SEARCH_CONTEXT_SHARE = 0.1;
export const DEFAULT_TOOL_SEARCH_TOKENS = 20_000;

/** Apply defaults and check every value; a wrong one is a ConfigError naming the setting. */
export function resolveToolSearchSettings(
  options: ToolSearchMode | ToolSearchOptions | undefined,
): ToolSearchSettings {
  const given: ToolSearchOptions =
    typeof options === "string" ? { mode: options } : (options ?? {});
  const mode = given.mode ?? "auto";
  if (!(TOOL_SEARCH_MODES as readonly string[]).includes(mode))
    throw invalid("mode", `"${mode}" is not a mode (${TOOL_SEARCH_MODES.join(", ")})`);
  const engine = given.engine ?? "auto";
  if (!(TOOL_SEARCH_ENGINES as readonly string[]).includes(engine))
    throw invalid("engine", `"${engine}" is not an engine (${TOOL_SEARCH_ENGINES.join(", ")})`);
  const maxResults = given.maxResults ?? DEFAULT_TOOL_SEARCH_RESULTS;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 50)
    throw invalid("maxResults", `must be an integer from 1 to 50 (got ${maxResults})`);
  const contextShare = given.contextShare ?? DEFAULT_TOOL_SEARCH_CONTEXT_SHARE;
  if (!(contextShare > 0 && contextShare <= 1))
    throw invalid("contextShare", `must be above 0 and at most 1 (got ${contextShare})`);
  const tokens = given.tokens ?? DEFAULT_TOOL_SEARCH_TOKENS;
  if (!Number.isInteger(tokens) || tokens < 1)
    throw invalid("tokens", `must be a positive integer (got ${tokens})`);
  if (given.maxTools !== undefined && (!Number.isInteger(given.maxTools) || given.maxTools < 1))
    throw invalid("maxTools", `must be a positive integer (got ${given.maxTools})`);
  const pin = (given.pin ?? []).map((raw) => {
    const pattern = parseRulePattern(raw);
    if (pattern.argument !== undefined)
      throw invalid("pin", `"${raw}" names arguments; a pin is a tool name or glob`);
    return pattern;
  });
  return { mode, engine, pin, maxResults, contextShare, tokens, maxTools: given.maxTools };
}

function invalid(option: string, problem: string): ConfigError {
  return new ConfigError("config_invalid", `toolSearch.${option} ${problem}.`, {
    details: { option: `toolSearch.${option}` },
  });
}
