import type { Tool } from "../contracts/tool.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import { toolFailure, toolSuccess } from "../contracts/tool-result.js";
import type { ToolSearchOutcome } from "../contracts/tool-search-types.js";

/** The name of our search tool, the one the model calls where the provider has no search. */
export const TOOL_SEARCH_TOOL_NAME = "tool_search";

/** The source id the search tool is registered under. */
export const TOOL_SEARCH_SOURCE = "tool-search";

/**
 * Whether `tool` is our search tool. Allow-lists and narrowing layers (a sub-agent's `tools`, a
 * skill's) let it through: it shows the model definitions of tools the policy offers anyway and
 * runs nothing else, so narrowing the tools must not leave the narrowed set unreachable. A deny
 * rule naming it still removes it (every definition is then sent).
 */
export function isToolSearchTool(tool: Pick<ToolDefinition, "name" | "source">): boolean {
  return tool.name === TOOL_SEARCH_TOOL_NAME && tool.source === TOOL_SEARCH_SOURCE;
}

export type { ToolSearchCapability, ToolSearchOutcome } from "../contracts/tool-search-types.js";

/**
 * The search tool. Its definition never changes (it heads no list that would move), so a
 * request's tools stay byte-identical from the first turn; what it found comes back in its
 * result, with each tool's full definition, and the tools join the list after every loaded one.
 */
export function toolSearchTool(maxResults: number): Tool {
  const definition: ToolDefinition = {
    name: TOOL_SEARCH_TOOL_NAME,
    description:
      "Search the tools that are available but not loaded yet (most tools from MCP servers are " +
      "found this way). Give keywords for what you need to do, e.g. `create github issue` or " +
      "`calendar events`, or `select:<tool name>` for a tool you know by name. The best matches " +
      "are loaded and can be called directly from your next step; others are listed. Search " +
      "before concluding that a capability is missing.",
    inputSchema: {
      type: "object",
      properties: {
        query: {
          type: "string",
          description: "Keywords describing the capability, or `select:name1,name2`.",
        },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: maxResults,
          description: `How many tools to return at most (default ${maxResults}).`,
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    safety: "read_only",
    source: TOOL_SEARCH_SOURCE,
  };
  return {
    definition,
    validate(args) {
      if (typeof args.query !== "string" || args.query.trim() === "")
        return { ok: false, message: "query: a non-empty string is required" };
      const limit = args.limit;
      if (
        limit !== undefined &&
        (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxResults)
      )
        return { ok: false, message: `limit: an integer from 1 to ${maxResults}` };
      const extra = Object.keys(args).find((key) => key !== "query" && key !== "limit");
      if (extra) return { ok: false, message: `${extra}: unknown argument` };
      return { ok: true };
    },
    async execute(args, context) {
      if (!context.toolSearch)
        return toolFailure(
          "tool_error",
          "tool_search runs inside an agent's conversation only (it loads tools into it).",
        );
      const query = String(args.query).trim();
      const outcome = await context.toolSearch.search(
        query,
        typeof args.limit === "number" ? args.limit : undefined,
      );
      return searchResult(query, outcome);
    },
  };
}

/**
 * The result names what was loaded and lists what else matched, with short descriptions: the
 * loaded tools' full definitions reach the model through the tool list from the next request,
 * so repeating their schemas here would have the model read each of them twice on every
 * later request.
 */
function searchResult(query: string, outcome: ToolSearchOutcome) {
  const loaded = outcome.found.map((tool) => tool.name);
  const others = outcome.others.map((tool) => tool.name);
  const metadata = { found: loaded };
  const structured = { loaded, others };
  if (loaded.length === 0)
    return toolSuccess(
      `No tool matches "${query}" among ${outcome.searched} not yet loaded. Try other words (a verb and an object, a service's name), or go on with the tools you have.`,
      { structured, metadata },
    );
  const lines = [
    `Loaded for "${query}"; call directly:`,
    ...outcome.found.map((tool) => `- ${tool.name}: ${brief(tool.description)}`),
  ];
  if (others.length > 0)
    lines.push(
      "Also matching, not loaded (search `select:<name>` to load):",
      ...outcome.others.map((tool) => `- ${tool.name}: ${brief(tool.description)}`),
    );
  return toolSuccess(lines.join("\n"), { structured, metadata });
}

/** The first sentence of a description, cut to 160 characters. */
function brief(description: string): string {
  const line = description.replace(/\s+/g, " ").trim();
  const sentence = line.match(/^.*?[.!?](\s|$)/)?.[0]?.trim() ?? line;
  return sentence.length > 160 ? `${sentence.slice(0, 157)}...` : sentence;
}
