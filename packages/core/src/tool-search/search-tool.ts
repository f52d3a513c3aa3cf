import type { Tool } from "../tools/tool.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import { toolFailure, toolSuccess } from "../tools/tool-result.js";
import { isPlainObject } from "../util/plain-object.js";

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

/** What one search answers: the tools it found (loaded from the next request on). */
export interface ToolSearchOutcome {
  found: readonly ToolDefinition[];
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
      "`calendar events`, or `select:<tool name>` for a tool you know by name. Matching tools " +
      "are loaded and can be called directly from your next step. Search before concluding that " +
      "a capability is missing.",
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

function searchResult(query: string, outcome: ToolSearchOutcome) {
  const found = outcome.found.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
  const names = outcome.found.map((tool) => tool.name);
  if (found.length === 0)
    return toolSuccess(
      `No tool matches "${query}" among ${outcome.searched} not yet loaded. Try other words (a verb and an object, a service's name), or go on with the tools you have.`,
      { structured: { tools: [] }, metadata: { found: [] } },
    );
  const lines = found.map(
    (tool) =>
      `- ${tool.name}: ${tool.description}\n  parameters: ${JSON.stringify(tool.input_schema)}`,
  );
  return toolSuccess(
    `${found.length} tool${found.length === 1 ? "" : "s"} found for "${query}" and loaded; call ${found.length === 1 ? "it" : "them"} directly:\n${lines.join("\n")}`,
    { structured: { tools: found }, metadata: { found: names } },
  );
}

/** The tool names a search tool result says it loaded (for a session read back). */
export function foundInResult(metadata: unknown): string[] {
  if (!isPlainObject(metadata) || !Array.isArray(metadata.found)) return [];
  return metadata.found.filter((name): name is string => typeof name === "string");
}
