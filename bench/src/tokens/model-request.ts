/**
 * A model request as the scripted model reads it, whichever API it came through (Chat
 * Completions or Responses): the conversation as items, and the tools in the three states a
 * model can see them in (callable, deferred to a search, the provider's own search).
 */

/** One thing in the conversation, in the order the model reads it. */
export type Item =
  | { kind: "text"; role: "system" | "user" | "assistant"; text: string }
  | { kind: "call"; id: string; name: string; namespace?: string; arguments: string }
  | { kind: "result"; id: string; text: string }
  /** A Responses `tool_search_call` (the provider's search, run by the server or the client). */
  | { kind: "search-call"; id: string; arguments: unknown }
  /** A Responses `tool_search_output`: the definitions it loads are read here. */
  | { kind: "search-output"; id: string; tools: WireTool[] }
  /** Anything else an API carries (reasoning, hosted calls): read as its JSON. */
  | { kind: "other"; value: unknown };

/** A tool definition as it came over the wire (Chat's `function` unwrapped). */
export type WireTool = Record<string, unknown> & { type?: string };

/** A function tool the model may call now, with the namespace it sits in (Responses). */
export interface FunctionTool {
  name: string;
  namespace?: string;
  description?: string;
  parameters?: unknown;
}

/** The provider's own search (a Responses `tool_search` tool). */
export interface HostedSearch {
  execution: "server" | "client";
}

export interface ModelRequest {
  api: "chat" | "responses";
  stream: boolean;
  items: Item[];
  /** Every tool definition of the request's `tools`, as sent. */
  tools: WireTool[];
  /** Function tools callable now: sent in full, or loaded by a search output in `items`. */
  callable: FunctionTool[];
  /** Function tools a search can load (`defer_loading`), namespace members included. */
  deferred: FunctionTool[];
  hostedSearch?: HostedSearch;
}

/** The text of a message's content: a string, or the text of its parts. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) =>
        typeof part === "string"
          ? part
          : typeof (part as { text?: unknown })?.text === "string"
            ? (part as { text: string }).text
            : "",
      )
      .join("");
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

/**
 * Sorts Responses-style tool definitions (and those a search output loaded) into callable and
 * deferred function tools, namespace members included, and finds the provider's search.
 */
export function sortTools(
  tools: readonly WireTool[],
  loaded: readonly WireTool[],
): Pick<ModelRequest, "callable" | "deferred" | "hostedSearch"> {
  const callable: FunctionTool[] = [];
  const deferred: FunctionTool[] = [];
  let hostedSearch: HostedSearch | undefined;
  const visit = (tool: WireTool, namespace: string | undefined, isLoaded: boolean) => {
    if (tool.type === "namespace" && Array.isArray(tool.tools)) {
      for (const member of tool.tools as WireTool[]) visit(member, String(tool.name), isLoaded);
      return;
    }
    if (tool.type === "tool_search") {
      hostedSearch = { execution: tool.execution === "client" ? "client" : "server" };
      return;
    }
    if (tool.type !== "function" || typeof tool.name !== "string") return;
    const fn: FunctionTool = {
      name: tool.name,
      ...(namespace !== undefined ? { namespace } : {}),
      ...(typeof tool.description === "string" ? { description: tool.description } : {}),
      parameters: tool.parameters,
    };
    (tool.defer_loading === true && !isLoaded ? deferred : callable).push(fn);
  };
  for (const tool of tools) visit(tool, undefined, false);
  for (const tool of loaded) visit(tool, undefined, true);
  // A deferred tool a search output loaded is callable from then on.
  const loadedKeys = new Set(callable.map(key));
  return {
    callable,
    deferred: deferred.filter((fn) => !loadedKeys.has(key(fn))),
    ...(hostedSearch ? { hostedSearch } : {}),
  };
}

function key(fn: FunctionTool): string {
  return `${fn.namespace ?? ""}.${fn.name}`;
}
