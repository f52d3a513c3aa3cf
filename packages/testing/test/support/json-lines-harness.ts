// The contract suite's harness for the JSON lines provider: a local server of that API that
// plays the suite's replies and reads the requests back.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Provider } from "@pseudoclaude/core";
import type {
  ProviderContractHarness,
  ProviderContractMessage,
  ProviderContractReply,
  ProviderContractRequest,
  ProviderContractScript,
  ProviderContractServer,
} from "../../src/index.js";
import { type JsonLinesOptions, jsonLines } from "./json-lines-provider.js";

const KEY = "lines-test-0123456789abcdef";

/** A request as the server got it. */
export interface JsonLinesRequest {
  readonly headers: http.IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: the suite's checks read the wire JSON by path.
  readonly body: any;
}

/** How a harness of this API makes its provider; the suite's own tests wrap it to break it. */
export type JsonLinesFactory = (options: JsonLinesOptions) => Provider;

/** The harness, for the provider `make` creates (by default the JSON lines provider itself). */
export function jsonLinesHarness(
  make: JsonLinesFactory = jsonLines,
  overrides: Partial<ProviderContractHarness<JsonLinesRequest>> = {},
): ProviderContractHarness<JsonLinesRequest> {
  return {
    name: "JSON lines API",
    apiKey: KEY,
    usageCounts: ["inputTokens", "outputTokens", "cacheReadTokens"],
    // Its wire sends each call whole: there are no argument pieces to pass on.
    streamsToolInput: false,
    start: () => startJsonLinesServer(make),
    ...overrides,
  };
}

async function startJsonLinesServer(
  make: JsonLinesFactory,
): Promise<ProviderContractServer<JsonLinesRequest>> {
  const received: JsonLinesRequest[] = [];
  const queue: ProviderContractScript<JsonLinesRequest>[] = [];
  const server = http.createServer(async (raw, response) => {
    let text = "";
    for await (const chunk of raw) text += String(chunk);
    const request: JsonLinesRequest = { headers: raw.headers, body: JSON.parse(text) };
    received.push(request);
    const script = queue.shift();
    if (!script) return send(response, 500, { error: "No reply scripted." });
    await play(typeof script === "function" ? script(read(request)) : script, response, raw);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const baseURL = `http://127.0.0.1:${port}`;
  return {
    provider: (settings = {}) =>
      make({ baseURL, apiKey: KEY, maxRetries: settings.maxRetries ?? 0, ...settings }),
    reply: (...scripts) => {
      queue.push(...scripts);
    },
    requests: () => received.map(read),
    pending: () => queue.length,
    reset: () => {
      received.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** The lines of an answer, written one by one as a model would stream them. */
async function writeLines(
  response: ServerResponse,
  lines: readonly unknown[],
  end: (written: number) => "go" | "drop" | "end" = () => "go",
): Promise<void> {
  response.writeHead(200, { "content-type": "application/x-ndjson" });
  for (const [index, line] of lines.entries()) {
    const next = end(index);
    if (next === "drop") return void response.socket?.destroy();
    if (next === "end") return void response.end();
    response.write(`${JSON.stringify(line)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

async function play(
  reply: ProviderContractReply,
  response: ServerResponse,
  raw: IncomingMessage,
): Promise<void> {
  const texts = (deltas: readonly string[]) => deltas.map((text) => ({ text }));
  switch (reply.type) {
    case "text": {
      const { inputTokens = 100, outputTokens = 20, cacheReadTokens = 0 } = reply.usage ?? {};
      const usage = { input: inputTokens, output: outputTokens, cached: cacheReadTokens };
      return writeLines(response, [...texts(reply.deltas), { usage }, { stop: "end_turn" }]);
    }
    case "tool-calls": {
      const calls = reply.calls.map(({ id, name, ...call }) => ({
        call: { id, name, arguments: call.json ?? JSON.stringify(call.arguments ?? {}) },
      }));
      const text = reply.text === undefined ? [] : texts([reply.text]);
      const usage = { input: 100, output: 20, cached: 0 };
      return writeLines(response, [...text, ...calls, { usage }, { stop: "tool_use" }]);
    }
    case "http-error":
      return send(
        response,
        reply.status,
        { error: reply.message },
        { "request-id": reply.requestId },
      );
    case "rate-limited":
    case "overloaded": {
      const status = reply.type === "rate-limited" ? 429 : 503;
      return send(response, status, { error: "Try again." }, { "retry-after-ms": "1" });
    }
    case "drop-mid-stream":
    case "end-stream-early": {
      const cut = reply.type === "drop-mid-stream" ? "drop" : "end";
      return writeLines(response, [...texts(reply.deltas), { stop: "end_turn" }], (index) =>
        index >= reply.after ? cut : "go",
      );
    }
    case "hang":
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.write(`${JSON.stringify({ text: "Thinking" })}\n`);
      raw.socket.once("close", reply.closed);
      reply.opened();
      return;
  }
}

/** One message as this API carries it. */
interface WireMessage {
  role: "user" | "assistant" | "tool";
  text: string;
  calls?: Array<{ id: string; name: string; arguments: string }>;
  call_id?: string;
}

function readMessage(message: WireMessage): ProviderContractMessage {
  if (message.role === "assistant") {
    const toolCalls = (message.calls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      arguments: parsed(call.arguments),
    }));
    return { role: "assistant", text: message.text, toolCalls };
  }
  if (message.role === "tool")
    return { role: "tool", callId: message.call_id ?? "", text: message.text };
  return { role: "user", text: message.text };
}

function read(request: JsonLinesRequest): ProviderContractRequest<JsonLinesRequest> {
  const { body, headers } = request;
  return {
    wire: request,
    model: body.model,
    credential: headers.authorization?.replace(/^Bearer /, ""),
    system: body.system,
    maxTokens: body.max_tokens,
    tools: body.tools,
    toolChoice: body.tool_choice,
    messages: (body.messages as WireMessage[]).map(readMessage),
  };
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
