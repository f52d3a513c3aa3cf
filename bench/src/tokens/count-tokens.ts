import { encode } from "gpt-tokenizer";
import type { Item, ModelRequest, WireTool } from "./model-request.js";

/**
 * Tokens (o200k, gpt-tokenizer) the model reads per item beyond its text: the role and
 * separators a chat template wraps each message in (3, as OpenAI's own counting guide uses),
 * and 3 more priming the reply. The same for both APIs, so only what a framework sends differs.
 */
const PER_ITEM = 3;
const PRIMING = 3;

/** What one request costs, read as the model reads it. */
export interface RequestTokens {
  /**
   * Every item and every tool definition; a deferred tool counts its name and description, and
   * a namespace its own (the model sees those before searching, as OpenAI's tool-search guide
   * says), a loaded one its full definition.
   */
  tokens: number;
  /** The same with deferred tools and namespaces counted as nothing. */
  tokensDeferredFree: number;
}

export function tokensOf(text: string): number {
  return text.length === 0 ? 0 : encode(text).length;
}

/** The request's input tokens: items, then tool definitions. */
export function countRequest(request: ModelRequest): RequestTokens {
  let items = PRIMING;
  for (const item of request.items) items += PER_ITEM + itemTokens(item);
  const tools = request.tools.map(definitionTokens);
  return {
    tokens: items + sum(tools.map((t) => t.full)),
    tokensDeferredFree: items + sum(tools.map((t) => t.deferredFree)),
  };
}

function itemTokens(item: Item): number {
  switch (item.kind) {
    case "text":
      return tokensOf(item.text);
    case "call":
      return (
        tokensOf(item.namespace ? `${item.namespace}.${item.name}` : item.name) +
        tokensOf(item.arguments)
      );
    case "result":
      return tokensOf(item.text);
    case "search-call":
      return tokensOf(JSON.stringify(item.arguments ?? {}));
    case "search-output":
      // What a search loads is read in full, wherever it is deferred in `tools`.
      return sum(item.tools.map((tool) => definitionTokens(loadedCopy(tool)).full));
    case "other":
      return tokensOf(JSON.stringify(item.value));
  }
}

/** A loaded definition: no longer deferred, nor its namespace's members. */
function loadedCopy(tool: WireTool): WireTool {
  const { defer_loading: _deferred, ...rest } = tool;
  if (rest.type === "namespace" && Array.isArray(rest.tools))
    return { ...rest, tools: (rest.tools as WireTool[]).map(loadedCopy) };
  return rest;
}

/** One definition's tokens: in full, and with deferred parts counted as nothing. */
function definitionTokens(tool: WireTool): { full: number; deferredFree: number } {
  if (tool.type === "namespace") {
    const own = tokensOf(JSON.stringify({ name: tool.name, description: tool.description }));
    const members = Array.isArray(tool.tools) ? (tool.tools as WireTool[]) : [];
    // A deferred member is hidden until loaded: only the namespace's name and description show.
    const shown = members.filter((member) => member.defer_loading !== true);
    const counted = shown.map(definitionTokens);
    const allDeferred = shown.length === 0;
    return {
      full: own + sum(counted.map((c) => c.full)),
      deferredFree: (allDeferred ? 0 : own) + sum(counted.map((c) => c.deferredFree)),
    };
  }
  if (tool.type === "function" || tool.type === undefined) {
    if (tool.defer_loading === true)
      return {
        full: tokensOf(JSON.stringify({ name: tool.name, description: tool.description })),
        deferredFree: 0,
      };
    const full = tokensOf(
      JSON.stringify({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      }),
    );
    return { full, deferredFree: full };
  }
  // The provider's search tool and anything else: as sent.
  const full = tokensOf(JSON.stringify(tool));
  return { full, deferredFree: full };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
