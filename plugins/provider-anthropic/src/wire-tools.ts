import type Anthropic from "@anthropic-ai/sdk";
import type { ToolDefinition } from "@pseudoclaude/core";
import { type JsonSchema, objectInputSchema } from "@pseudoclaude/core/plugin";
import {
  createToolNameMap,
  type ProviderToolSearch,
  type ToolNameMap,
} from "@pseudoclaude/core/provider";
import type { AnthropicToolSearch } from "./anthropic-options.js";
import { searchToolParam } from "./server-tool-search.js";

/** The tools of one request as the Messages API takes them, with the name map to read calls. */
export interface WireTools {
  tools: Anthropic.Tool[];
  names: ToolNameMap;
}

/**
 * Project the offered tools. The kernel hands the same arrays while nothing changes, so the
 * projection is cached per array instead of rebuilt every turn, and each tool's wire form once.
 */
export class AnthropicToolProjector {
  private readonly cache = new WeakMap<readonly ToolDefinition[], WireTools>();
  private readonly wireForms = new WeakMap<ToolDefinition, Anthropic.Tool>();
  private searchNames:
    | { tools: readonly ToolDefinition[]; search: ProviderToolSearch; names: ToolNameMap }
    | undefined;
  private searchTools: { key: readonly unknown[]; tools: Anthropic.ToolUnion[] } | undefined;

  constructor(private readonly promptCaching: boolean) {}

  project(tools: readonly ToolDefinition[]): WireTools {
    const cached = this.cache.get(tools);
    if (cached) return cached;
    const names = createToolNameMap(tools.map((tool) => tool.name));
    const wire = tools.map((tool) => this.wireForm(tool, names));
    // The tool list is the head of the prompt: a breakpoint after it caches every tool.
    if (this.promptCaching) markCacheBreakpoint(wire, wire.length - 1);
    const projected = { tools: wire, names };
    this.cache.set(tools, projected);
    return projected;
  }

  /**
   * Names for a request with the API's tool search: every tool the model may call, loaded,
   * found or still deferred, so a call of a tool found this turn reads back.
   */
  namesWithSearch(tools: readonly ToolDefinition[], search: ProviderToolSearch): ToolNameMap {
    const cached = this.searchNames;
    if (
      cached?.tools === tools &&
      cached.search.deferred === search.deferred &&
      cached.search.found === search.found
    )
      return cached.names;
    const names = createToolNameMap(
      [...tools, ...search.found, ...search.deferred].map((tool) => tool.name),
    );
    this.searchNames = { tools, search, names };
    return names;
  }

  /**
   * The tools of a request with the API's tool search: the loaded tools (the cache breakpoint
   * after the last), the search tool, found tools whose search result the conversation no
   * longer holds (sent loaded, or they could not be called), then every other tool deferred.
   * Deferred tools go in name order, so a tool being found never moves another and the request
   * stays byte-identical for the prompt cache until a compaction.
   */
  projectWithSearch(
    tools: readonly ToolDefinition[],
    search: ProviderToolSearch,
    variant: AnthropicToolSearch,
    names: ToolNameMap,
    /** Wire names the conversation's search results reference. */
    referenced: ReadonlySet<string>,
  ): Anthropic.ToolUnion[] {
    const unreferenced = search.found.filter((tool) => !referenced.has(names.toWire(tool.name)));
    const key = [tools, search.deferred, search.found, variant, names, ...unreferenced];
    const cached = this.searchTools;
    if (cached?.key.length === key.length && cached.key.every((part, at) => part === key[at]))
      return cached.tools;
    const loaded: Anthropic.ToolUnion[] = tools.map((tool) => this.wireForm(tool, names));
    loaded.push(searchToolParam(variant));
    // Nothing loaded: the breakpoint goes on the search tool, which never changes either.
    if (this.promptCaching) markCacheBreakpoint(loaded, Math.max(tools.length - 1, 0));
    for (const tool of unreferenced) loaded.push(this.wireForm(tool, names));
    const loadedFound = new Set(unreferenced);
    const deferred = [...search.deferred, ...search.found.filter((tool) => !loadedFound.has(tool))]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((tool): Anthropic.Tool => ({ ...this.wireForm(tool, names), defer_loading: true }));
    const projected = [...loaded, ...deferred];
    this.searchTools = { key, tools: projected };
    return projected;
  }

  /** A tool as the API describes it, made once per definition (and name). */
  private wireForm(tool: ToolDefinition, names: ToolNameMap): Anthropic.Tool {
    const name = names.toWire(tool.name);
    const cached = this.wireForms.get(tool);
    if (cached?.name === name) return cached;
    const wire: Anthropic.Tool = {
      name,
      description: tool.description,
      input_schema: toInputSchema(tool.inputSchema),
    };
    this.wireForms.set(tool, wire);
    return wire;
  }
}

/** Put a cache breakpoint on one tool (a copy: wire forms are shared between requests). */
function markCacheBreakpoint<Tool extends Anthropic.ToolUnion>(tools: Tool[], at: number): void {
  const tool = tools[at];
  if (tool) tools[at] = { ...tool, cache_control: { type: "ephemeral" } };
}

/**
 * `input_schema` must be an object schema, which the registry already made every tool's
 * (`objectInputSchema` is a no-op then; it only matters for definitions that never went
 * through a registry). A copy is sent: the registry keeps validating with the tool's own.
 */
export function toInputSchema(schema: JsonSchema): Anthropic.Tool.InputSchema {
  return structuredClone(objectInputSchema(schema)) as Anthropic.Tool.InputSchema;
}
