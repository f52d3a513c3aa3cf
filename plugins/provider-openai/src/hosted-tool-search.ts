import type OpenAI from "openai";

type InputItem = OpenAI.Responses.ResponseInputItem;

/** The hosted search tool: OpenAI runs it and loads the deferred functions it finds. */
export const HOSTED_TOOL_SEARCH: OpenAI.Responses.ToolSearchTool = { type: "tool_search" };

/** An output item of the hosted search: the call, or what it loaded. */
export type SearchItem =
  | OpenAI.Responses.ResponseToolSearchCall
  | OpenAI.Responses.ResponseToolSearchOutputItem;

/**
 * A search item as an input item for the next request: as it came, less `created_by`, which
 * only output items carry. The conversation is not stored on the server, so what the search
 * loaded travels with it.
 */
export function searchInputItem(item: SearchItem): InputItem {
  const { created_by: _createdBy, ...input } = item;
  return input;
}

/**
 * The function names a search output loaded (wire names): top-level functions, and those of a
 * namespace, which the search loads only the matching functions of.
 */
export function loadedFunctions(tools: readonly OpenAI.Responses.Tool[]): string[] {
  return tools.flatMap((tool) =>
    tool.type === "function"
      ? [tool.name]
      : tool.type === "namespace"
        ? tool.tools.flatMap((member) => (member.type === "function" ? [member.name] : []))
        : [],
  );
}

/**
 * Wire names of the functions the conversation's search outputs load. A found tool whose
 * output was compacted away is sent loaded instead, or the model could no longer call it.
 */
export function referencedTools(input: readonly InputItem[]): Set<string> {
  const names = new Set<string>();
  for (const item of input)
    if ("type" in item && item.type === "tool_search_output")
      for (const name of loadedFunctions(item.tools)) names.add(name);
  return names;
}

/** What a search call asked, as one line for events and logs. */
export function searchQuery(args: unknown): string {
  if (args && typeof args === "object") {
    const { query } = args as { query?: unknown };
    if (typeof query === "string") return query;
  }
  return typeof args === "string" ? args : JSON.stringify(args ?? {});
}
