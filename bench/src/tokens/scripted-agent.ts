import { cannedText } from "./canned-text.js";
import type { FunctionTool, Item, ModelRequest } from "./model-request.js";
import type { TaskStep } from "./task.js";
import { endsWithTool, namesServer, pickTool } from "./tool-names.js";

/** What the scripted model does on one request: one thing per turn, as every contender gets. */
export type Action =
  /** Call a function tool: the task's own, a framework's search tool, or its loader. */
  | {
      kind: "call";
      purpose: "task" | "search" | "load";
      step: number;
      tool: FunctionTool;
      arguments: Record<string, unknown>;
    }
  /** Call the provider's own search (`tool_search`) for these paths. */
  | { kind: "tool-search"; step: number; paths: string[]; execution: "server" | "client" }
  | { kind: "answer"; text: string; completed: boolean };

/** A recorded server's key and its tool names, to tell MCP tools from a framework's own. */
export interface RecordedServer {
  server: string;
  tools: readonly string[];
}

/**
 * The scripted agent of the task: for the first step whose tool has not answered yet, call the
 * tool if it is offered; else find it through the search the request offers (the provider's
 * `tool_search`, or a framework's search function, then its loader where it has one); when
 * every step has answered, give the answer. Deterministic, so every contender meets the same
 * model.
 */
export function decide(
  request: ModelRequest,
  steps: readonly TaskStep[],
  answer: string,
  recorded: readonly RecordedServer[],
): Action {
  const history = new History(request.items);
  const next = steps.findIndex((step) => !history.done(step));
  if (next < 0) return { kind: "answer", text: answer, completed: true };
  const step = steps[next]!;
  const offered = pickTool(request.callable, step.server, step.tool);
  if (offered)
    return { kind: "call", purpose: "task", step: next, tool: offered, arguments: step.arguments };

  if (request.hostedSearch) {
    const deferred = pickTool(request.deferred, step.server, step.tool);
    // Inside a namespace only the namespace shows before a search: the model asks for it.
    const path = deferred ? (deferred.namespace ?? deferred.name) : undefined;
    if (path && !history.searchedPath(path))
      return {
        kind: "tool-search",
        step: next,
        paths: [path],
        execution: request.hostedSearch.execution,
      };
  }

  const own = request.callable.filter((fn) => !isRecorded(fn, recorded));
  const loader = own.find((fn) => /load/i.test(fn.name));
  if (loader) {
    const found = history
      .namesInResults()
      .find((name) => endsWithTool(name, step.tool) && namesServer(name, undefined, step.server));
    if (found && !history.called(loader.name, found))
      return {
        kind: "call",
        purpose: "load",
        step: next,
        tool: loader,
        arguments: { [firstStringProperty(loader, "toolName")]: found },
      };
  }
  const search = searchTool(own);
  if (search) {
    const tries = step.queries.filter((query) => history.called(search.name, query)).length;
    const query = step.queries[tries];
    if (query !== undefined)
      return {
        kind: "call",
        purpose: "search",
        step: next,
        tool: search,
        arguments: { [firstStringProperty(search, "query")]: query },
      };
  }
  return {
    kind: "answer",
    text: `I could not find a tool for ${step.tool} on ${step.server}.`,
    completed: false,
  };
}

/** A framework's search tool: the names they use, else one that says it searches tools. */
function searchTool(own: readonly FunctionTool[]): FunctionTool | undefined {
  const known = ["tool_search", "search_tools", "search", "toolSearch", "tool_search_tool"];
  return (
    own.find((fn) => known.includes(fn.name)) ??
    own.find((fn) => /search/i.test(fn.name) && /tool/i.test(fn.description ?? fn.name))
  );
}

function isRecorded(fn: FunctionTool, recorded: readonly RecordedServer[]): boolean {
  return recorded.some(
    (set) =>
      namesServer(fn.name, fn.namespace, set.server) &&
      set.tools.some((tool) => endsWithTool(fn.name, tool)),
  );
}

/** The tool's first string parameter (its query or name), or `fallback`. */
function firstStringProperty(fn: FunctionTool, fallback: string): string {
  const properties = (fn.parameters as { properties?: Record<string, { type?: unknown }> })
    ?.properties;
  if (properties && fallback in properties) return fallback;
  const first = Object.entries(properties ?? {}).find(([, p]) => p?.type === "string");
  return first?.[0] ?? fallback;
}

/** What the conversation so far says: which calls answered, what was searched, names found. */
class History {
  private readonly calls = new Map<string, Extract<Item, { kind: "call" }>>();
  private readonly results: Array<Extract<Item, { kind: "result" }>> = [];
  private readonly searches: unknown[] = [];

  constructor(items: readonly Item[]) {
    for (const item of items) {
      if (item.kind === "call") this.calls.set(item.id, item);
      else if (item.kind === "result") this.results.push(item);
      else if (item.kind === "search-call") this.searches.push(item.arguments);
    }
  }

  /** The step's tool was called and the server's answer came back. */
  done(step: TaskStep): boolean {
    return this.results.some((result) => {
      const call = this.calls.get(result.id);
      return (
        call !== undefined &&
        endsWithTool(call.name, step.tool) &&
        result.text.includes(cannedText(step.tool))
      );
    });
  }

  /** A call of `name` whose arguments mention `text`. */
  called(name: string, text: string): boolean {
    return [...this.calls.values()].some(
      (call) => call.name === name && call.arguments.includes(JSON.stringify(text).slice(1, -1)),
    );
  }

  searchedPath(path: string): boolean {
    return this.searches.some((args) => JSON.stringify(args ?? null).includes(`"${path}"`));
  }

  /** Tool names that earlier results mention (`"name": "..."`, `"toolName": "..."`). */
  namesInResults(): string[] {
    const names: string[] = [];
    for (const result of this.results)
      for (const match of result.text.matchAll(/"(?:name|toolName)"\s*:\s*"([^"]+)"/g))
        names.push(match[1]!);
    return names;
  }
}
