import type { ToolDefinition } from "@pseudoclaude/core";
import { type JsonSchema, objectInputSchema } from "@pseudoclaude/core/plugin";
import {
  createToolNameMap,
  type ProviderToolSearch,
  type ToolNameMap,
} from "@pseudoclaude/core/provider";
import type OpenAI from "openai";
import { HOSTED_TOOL_SEARCH } from "./hosted-tool-search.js";
import { removeAddedNulls, toStrictSchema } from "./strict-schema.js";
import { type SearchableFunction, toNamespaces } from "./wire-namespaces.js";

/** One tool as both OpenAI APIs describe a function. */
export interface WireFunction {
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** The tools of one request, with what it takes to read the model's calls back. */
export interface WireTools {
  functions: WireFunction[];
  names: ToolNameMap;
  /** Registry name and arguments as the registry should see them. */
  readCall(wireName: string, args: unknown): { name: string; arguments: unknown };
}

/**
 * Project the offered tools. The kernel hands the same array while the registry is unchanged,
 * so the projection is cached per array instead of rebuilt every turn.
 */
export class OpenAIToolProjector {
  private readonly cache = new WeakMap<readonly ToolDefinition[], WireTools>();
  private everyTool:
    | { tools: readonly ToolDefinition[]; search: ProviderToolSearch; all: ToolDefinition[] }
    | undefined;
  private searchTools: { key: readonly unknown[]; tools: OpenAI.Responses.Tool[] } | undefined;

  constructor(private readonly strict: boolean) {}

  project(tools: readonly ToolDefinition[]): WireTools {
    const cached = this.cache.get(tools);
    if (cached) return cached;
    const names = createToolNameMap(tools.map((tool) => tool.name));
    // Tools sent strict, by registry name, with the schema their nulls are read against.
    const strictSchemas = new Map<string, JsonSchema>();
    const functions = tools.map((tool): WireFunction => {
      const strictSchema = this.strict ? toStrictSchema(tool.inputSchema) : undefined;
      if (strictSchema) strictSchemas.set(tool.name, tool.inputSchema);
      return {
        name: names.toWire(tool.name),
        description: tool.description,
        parameters: strictSchema ?? toParameters(tool.inputSchema),
        strict: strictSchema !== undefined,
      };
    });
    const projected: WireTools = {
      functions,
      names,
      readCall(wireName, args) {
        const name = names.fromWire(wireName);
        const schema = strictSchemas.get(name);
        return {
          name,
          arguments: schema && typeof args === "object" ? removeAddedNulls(args, schema) : args,
        };
      },
    };
    this.cache.set(tools, projected);
    return projected;
  }

  /**
   * Every tool of a request with the hosted search, loaded, found and deferred, in that order:
   * any of them may be called (a tool found this turn too), so the names and strict schemas
   * cover them all.
   */
  projectWithSearch(tools: readonly ToolDefinition[], search: ProviderToolSearch): WireTools {
    const cached = this.everyTool;
    if (
      cached?.tools !== tools ||
      cached.search.deferred !== search.deferred ||
      cached.search.found !== search.found
    )
      this.everyTool = { tools, search, all: [...tools, ...search.found, ...search.deferred] };
    return this.project(this.everyTool!.all);
  }

  /**
   * The Responses `tools` with the hosted search: the loaded functions, the search tool, found
   * tools whose search output the conversation no longer holds (loaded, so they stay callable),
   * then every other function deferred inside the namespace of its MCP server or source (see
   * `toNamespaces`): the model reads the namespaces' names and descriptions, not one line per
   * function. A tool being found stays where it was, so the tools do not change across a search
   * and the start of the request stays the same for the prompt cache.
   */
  responsesToolsWithSearch(
    tools: readonly ToolDefinition[],
    search: ProviderToolSearch,
    wire: WireTools,
    /** Wire names the conversation's search outputs load. */
    referenced: ReadonlySet<string>,
  ): OpenAI.Responses.Tool[] {
    // `wire` lists loaded, then found, then deferred tools (see projectWithSearch).
    const loaded = wire.functions.slice(0, tools.length);
    const found = wire.functions.slice(tools.length, tools.length + search.found.length);
    const deferred = wire.functions.slice(tools.length + search.found.length);
    const unreferenced = found.filter((fn) => !referenced.has(fn.name));
    const key = [wire, ...unreferenced];
    const cached = this.searchTools;
    if (cached?.key.length === key.length && cached.key.every((part, at) => part === key[at]))
      return cached.tools;
    const searchable: SearchableFunction[] = [
      ...deferred.map((fn, at) => ({ fn, definition: search.deferred[at]! })),
      ...found.flatMap((fn, at) =>
        referenced.has(fn.name) ? [{ fn, definition: search.found[at]! }] : [],
      ),
    ];
    const taken = new Set([HOSTED_TOOL_SEARCH.type, ...wire.functions.map((fn) => fn.name)]);
    const projected: OpenAI.Responses.Tool[] = [
      ...loaded.map((fn) => responsesFunction(fn)),
      HOSTED_TOOL_SEARCH,
      ...unreferenced.map((fn) => responsesFunction(fn)),
      ...toNamespaces(searchable, taken),
    ];
    this.searchTools = { key, tools: projected };
    return projected;
  }
}

/** A function as the Responses API takes it; `deferred` leaves it to the hosted search. */
export function responsesFunction(
  fn: WireFunction,
  deferred = false,
): OpenAI.Responses.FunctionTool {
  return {
    type: "function",
    name: fn.name,
    description: fn.description,
    parameters: fn.parameters,
    strict: fn.strict,
    ...(deferred ? { defer_loading: true } : {}),
  };
}

/**
 * Non-strict parameters: a copy of the tool's schema (the registry keeps validating with the
 * original) as an object schema, which the registry already made it (see `objectInputSchema`),
 * with the `properties` function parameters must have.
 */
export function toParameters(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(objectInputSchema(schema));
  // A schema for something else than an object was replaced whole; it gets nothing more.
  const replaced = schema.type !== undefined && schema.type !== "object";
  if (copy.properties === undefined && !replaced) copy.properties = {};
  return copy;
}
