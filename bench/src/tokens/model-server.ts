// A local "model" that speaks the OpenAI Chat Completions API and the Responses API (streaming
// or not, SSE like the real API, usage included) and plays the scripted agent of the token
// row's task (`scripted-agent.ts`), counting the input tokens of every request as the model
// would read them (`count-tokens.ts`); a request of the code-mode row's task (its user prompt)
// is played by that task's scripted model (`../code-mode/chained-model.ts`). `GET /stats`
// gives the requests so far, `POST /reset` forgets them. `node model-server.js` listens on
// PORT (default any free port) and prints `listening <port>`; with BENCH_MODEL_DUMP=<file> it
// appends every request body to that file, one JSON line each, for a person checking what a
// framework sent.
import { appendFileSync } from "node:fs";
import http from "node:http";
import { pathToFileURL } from "node:url";
import { chainedStep, isChainedTask } from "../code-mode/chained-model.js";
import { readChatRequest, writeChatReply } from "./chat-api.js";
import { countRequest, tokensOf } from "./count-tokens.js";
import { type ModelRequest, sortTools, type WireTool } from "./model-request.js";
import type { Reply } from "./reply.js";
import { ResponsesStore, readResponsesRequest, writeResponsesReply } from "./responses-api.js";
import { type Action, decide, type RecordedServer } from "./scripted-agent.js";
import { TASK } from "./task.js";
import { loadToolSets } from "./tool-set.js";

/** One request as the model saw it: what it cost and what the model did. */
export interface RequestRecord {
  api: "chat" | "responses";
  stream: boolean;
  input_tokens: number;
  /** The same with deferred tools counted as nothing (see `RequestTokens`). */
  input_tokens_deferred_free: number;
  /** Function tools the request let the model call (sent in full or loaded). */
  callable_tools: number;
  /** Function tools it deferred to a search. */
  deferred_tools: number;
  /**
   * What the model did: `call:task <tool>`, `call:search <tool>`, `call:load <tool>`,
   * `tool-search <paths>`, `answer`; a server-run search and what followed it in the same
   * response, comma-separated.
   */
  action: string;
}

export interface ModelStats {
  requests: RequestRecord[];
  /** The model answered with all three of the task's tools done. */
  completed: boolean;
}

export interface ModelServer {
  url: string;
  stats(): ModelStats;
  reset(): void;
  close(): Promise<void>;
}

/** Starts the model on 127.0.0.1 (`port` 0: any free one). */
export async function startModelServer(port = 0): Promise<ModelServer> {
  const recorded: RecordedServer[] = loadToolSets().map(({ set }) => ({
    server: set.server,
    tools: set.tools.map((tool) => tool.name),
  }));
  const store = new ResponsesStore();
  let stats: ModelStats = { requests: [], completed: false };
  let served = 0;

  const answer = (request: ModelRequest): { reply: Reply; record: RequestRecord } => {
    const n = ++served;
    const counted = countRequest(request);
    if (isChainedTask(request)) {
      const step = chainedStep(request, n, counted.tokens);
      if (step.completed) stats.completed = true;
      const record: RequestRecord = {
        api: request.api,
        stream: request.stream,
        input_tokens: counted.tokens,
        input_tokens_deferred_free: counted.tokensDeferredFree,
        callable_tools: request.callable.length,
        deferred_tools: request.deferred.length,
        action: step.label,
      };
      return { reply: step.reply, record };
    }
    const action = decide(request, TASK.steps, TASK.answer, recorded);
    let reply = replyFor(action, request, n, counted.tokens);
    let done = action;
    let tokens = counted;
    let label = actionLabel(action);
    if (action.kind === "tool-search" && action.execution === "server") {
      // The real API runs its own search inside the response: the model reads the conversation
      // again with what the search loaded and goes on in the same response. Both readings are
      // counted, as a client-run search costs two requests.
      const searched = withServerSearch(request, `call_bench${n}`, action.paths);
      const again = countRequest(searched);
      const next = decide(searched, TASK.steps, TASK.answer, recorded);
      if (next.kind !== "tool-search") {
        const rest = replyFor(next, searched, n, 0);
        reply = {
          ...rest,
          toolSearch: reply.toolSearch!,
          usage: {
            input: counted.tokens + again.tokens,
            output: reply.usage.output + rest.usage.output,
          },
        };
        done = next;
        tokens = {
          tokens: counted.tokens + again.tokens,
          tokensDeferredFree: counted.tokensDeferredFree + again.tokensDeferredFree,
        };
        label = `${label}, ${actionLabel(next)}`;
      }
    }
    if (done.kind === "answer" && done.completed) stats.completed = true;
    const record: RequestRecord = {
      api: request.api,
      stream: request.stream,
      input_tokens: tokens.tokens,
      input_tokens_deferred_free: tokens.tokensDeferredFree,
      callable_tools: request.callable.length,
      deferred_tools: request.deferred.length,
      action: label,
    };
    return { reply, record };
  };

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (req.method === "GET" && url.pathname === "/stats") return json(res, stats);
      if (req.method === "POST" && url.pathname === "/reset") {
        stats = { requests: [], completed: false };
        store.clear();
        return json(res, { ok: true });
      }
      if (req.method === "GET" && url.pathname === "/v1/models")
        return json(res, {
          object: "list",
          data: [{ id: "bench", object: "model", owned_by: "bench" }],
        });
      if (req.method !== "POST") return notFound(res);
      const text = await readBody(req);
      const dump = process.env.BENCH_MODEL_DUMP;
      if (dump)
        appendFileSync(dump, `${JSON.stringify({ path: url.pathname, body: JSON.parse(text) })}\n`);
      const body = JSON.parse(text) as Record<string, unknown>;
      if (url.pathname === "/v1/chat/completions") {
        const { reply, record } = answer(readChatRequest(body));
        stats.requests.push(record);
        return writeChatReply(body, reply, res, served);
      }
      if (url.pathname === "/v1/responses") {
        const { reply, record } = answer(readResponsesRequest(body, store));
        stats.requests.push(record);
        return writeResponsesReply(body, reply, res, served, store);
      }
      return notFound(res);
    } catch (error) {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: { message: String((error as Error)?.stack ?? error) } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    stats: () => stats,
    reset: () => {
      stats = { requests: [], completed: false };
      store.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The action as one line of the stats. */
function actionLabel(action: Action): string {
  if (action.kind === "call") return `call:${action.purpose} ${action.tool.name}`;
  if (action.kind === "tool-search") return `tool-search ${action.paths.join(",")}`;
  return "answer";
}

/**
 * The definitions a search for `paths` loads: the deferred functions or namespaces so named. A
 * namespace's path loads the namespace with every function in it, as the OpenAI Agents SDK's
 * built-in `{ paths }` loader does. (That loader also takes `namespace.name` for one function;
 * the scripted model never asks for one, since before a search it sees no function's name in a
 * namespace, only the namespace's own.)
 */
function loadedBy(paths: readonly string[], tools: readonly WireTool[]): WireTool[] {
  return tools
    .filter((tool) => paths.includes(String(tool.name)))
    .map((tool): WireTool => ({ ...tool, defer_loading: false }));
}

/** The request as the model reads it again once the server's search has loaded `paths`. */
function withServerSearch(request: ModelRequest, id: string, paths: string[]): ModelRequest {
  const loaded = loadedBy(paths, request.tools);
  const before = request.items.flatMap((item) => (item.kind === "search-output" ? item.tools : []));
  return {
    ...request,
    items: [
      ...request.items,
      { kind: "search-call", id, arguments: { paths } },
      { kind: "search-output", id, tools: loaded },
    ],
    ...sortTools(request.tools, [...before, ...loaded]),
  };
}

/** The action as a reply; a server-run search loads the definitions it names. */
function replyFor(action: Action, request: ModelRequest, n: number, input: number): Reply {
  const id = `call_bench${n}`;
  if (action.kind === "answer")
    return { text: action.text, calls: [], usage: { input, output: tokensOf(action.text) } };
  if (action.kind === "call") {
    const args = JSON.stringify(action.arguments);
    return {
      calls: [
        {
          id,
          name: action.tool.name,
          ...(action.tool.namespace !== undefined ? { namespace: action.tool.namespace } : {}),
          arguments: args,
        },
      ],
      usage: { input, output: tokensOf(action.tool.name) + tokensOf(args) },
    };
  }
  const args = { paths: action.paths };
  const loaded = action.execution === "server" ? loadedBy(action.paths, request.tools) : undefined;
  return {
    calls: [],
    toolSearch: { id, execution: action.execution, arguments: args, ...(loaded ? { loaded } : {}) },
    usage: { input, output: tokensOf(JSON.stringify(args)) },
  };
}

function json(res: http.ServerResponse, value: unknown): void {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(JSON.stringify(value));
}

function notFound(res: http.ServerResponse): void {
  res.writeHead(404, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ error: { message: "not found" } }));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const running = await startModelServer(Number(process.env.PORT ?? 0));
  process.stdout.write(`listening ${new URL(running.url).port}\n`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
