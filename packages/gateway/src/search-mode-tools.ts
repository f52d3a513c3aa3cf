import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import { isPlainObject } from "@pseudoclaude/core/plugin";
import type { ExposedToolMatches } from "./exposed-tool-search.js";
import { type ListedTool, listedTool } from "./gateway-tools.js";

/** The search tool of `expose_mode: search`. */
export const SEARCH_TOOLS_NAME = "search_tools";
/** The tool that calls what a search found, in `expose_mode: search`. */
export const CALL_TOOL_NAME = "call_tool";

/** How many matches a search returns unless it asks (the kernel's `tool_search` default). */
export const DEFAULT_SEARCH_LIMIT = 5;
/** The most a search may ask for. */
export const MAX_SEARCH_LIMIT = 50;

/** What `search_tools` answers in `structuredContent`: each match as `tools/list` shows it. */
export interface SearchToolsOutput {
  [key: string]: unknown;
  tools: ListedTool[];
}

const listedToolSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    title: { type: "string" },
    description: { type: "string" },
    inputSchema: { type: "object" },
    annotations: { type: "object" },
    _meta: { type: "object" },
  },
  required: ["name", "description", "inputSchema"],
};

/**
 * The two tools `tools/list` shows in search mode. They never change, whatever the registry
 * does, so a client's list (and its model's prompt cache) stays put. `call_tool` says it may
 * destroy: it runs whichever exposed tool it is given.
 */
export const SEARCH_MODE_TOOLS: readonly Tool[] = [
  {
    name: SEARCH_TOOLS_NAME,
    title: "Search tools",
    description:
      "Search the tools this server offers: they are not listed, there are too many. Give " +
      "keywords for what you need to do, e.g. `create github issue` or `read file`, or " +
      "`select:<name>` for a tool you know by name. Each match comes with its name, " +
      "description and input schema; run it with call_tool. Search before concluding that a " +
      "capability is missing.",
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
          maximum: MAX_SEARCH_LIMIT,
          description: `How many tools to return at most (default ${DEFAULT_SEARCH_LIMIT}).`,
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { tools: { type: "array", items: listedToolSchema } },
      required: ["tools"],
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: CALL_TOOL_NAME,
    title: "Call a tool",
    description:
      "Call a tool that search_tools found: `name` is its name, `arguments` its arguments as " +
      "its input schema says. The answer is the tool's own.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "The tool's name, as search_tools gave it." },
        arguments: {
          type: "object",
          description: "The tool's arguments (default: none).",
        },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
];

/** `search_tools`' arguments, or why they are wrong. */
export type SearchArguments =
  | { kind: "search"; query: string; limit: number }
  | { kind: "invalid"; result: CallToolResult };

export function searchArguments(args: Record<string, unknown> | undefined): SearchArguments {
  const { query, limit, ...rest } = args ?? {};
  if (typeof query !== "string" || query.trim() === "")
    return invalid(SEARCH_TOOLS_NAME, "query: a non-empty string is required");
  if (
    limit !== undefined &&
    (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)
  )
    return invalid(SEARCH_TOOLS_NAME, `limit: an integer from 1 to ${MAX_SEARCH_LIMIT}`);
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return invalid(SEARCH_TOOLS_NAME, `${extra}: unknown argument`);
  return { kind: "search", query: query.trim(), limit: limit ?? DEFAULT_SEARCH_LIMIT };
}

/** `call_tool`'s arguments: the call it stands for, or why they are wrong. */
export type CallArguments =
  | { kind: "call"; name: string; arguments: Record<string, unknown> | undefined }
  | { kind: "invalid"; result: CallToolResult };

export function callArguments(args: Record<string, unknown> | undefined): CallArguments {
  const { name, arguments: inner, ...rest } = args ?? {};
  if (typeof name !== "string" || name === "")
    return invalid(CALL_TOOL_NAME, "name: the name of a tool search_tools found is required");
  if (inner !== undefined && !isPlainObject(inner))
    return invalid(CALL_TOOL_NAME, "arguments: an object of the tool's arguments");
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    return invalid(
      CALL_TOOL_NAME,
      `${extra}: unknown argument (the tool's own arguments go in \`arguments\`)`,
    );
  return { kind: "call", name, arguments: inner };
}

/** A search's answer: the matches as text for a model, and as `tools/list` entries. */
export function searchToolsResult(
  query: string,
  matches: ExposedToolMatches,
  apps = false,
): CallToolResult {
  const tools = matches.found.map((tool) => listedTool(tool, apps));
  const structuredContent: SearchToolsOutput = { tools };
  if (tools.length === 0)
    return {
      content: [
        {
          type: "text",
          text: `No tool matches "${query}" among ${matches.searched}. Try other words (a verb and an object, a service's name).`,
        },
      ],
      structuredContent,
    };
  const lines = tools.map(
    (tool) =>
      `- ${tool.name}: ${tool.description}\n  input schema: ${JSON.stringify(tool.inputSchema)}`,
  );
  const plural = tools.length === 1 ? "" : "s";
  return {
    content: [
      {
        type: "text",
        text: `${tools.length} tool${plural} found for "${query}"; run one with call_tool { "name": …, "arguments": {…} }:\n${lines.join("\n")}`,
      },
    ],
    structuredContent,
  };
}

/**
 * Arguments that do not fit are the tool's error, not the protocol's, so the model that made
 * them reads why and can try again (as a registry tool's invalid arguments are).
 */
function invalid(tool: string, message: string): { kind: "invalid"; result: CallToolResult } {
  return {
    kind: "invalid",
    result: {
      isError: true,
      content: [{ type: "text", text: `Invalid arguments for ${tool}: ${message}` }],
    },
  };
}
