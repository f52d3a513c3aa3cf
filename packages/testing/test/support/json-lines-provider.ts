// A small provider with no SDK, for an API of its own that streams JSON lines: it shows the
// contract suite needs nothing but the Provider contract, and is the provider the suite's own
// tests break on purpose.
//
// The API: POST {baseURL}/turns with a bearer key and the turn as JSON; a 200 streams one JSON
// object a line ({"text"}, {"call"}, {"usage"}, then {"stop"}, which completes the answer);
// any other status carries {"error": message} and a `request-id` header, and 429 or 5xx a
// `retry-after-ms` header.
import { setTimeout as sleep } from "node:timers/promises";
import { ModelError, type Provider, textOf } from "@pseudoclaude/core";
import {
  createToolNameMap,
  describeCause,
  type Message,
  modelErrorCode,
  type ProviderEvent,
  type ProviderRequest,
  requestSignal,
  resolveContextWindow,
  type StopReason,
  type ToolNameMap,
} from "@pseudoclaude/core/provider";

export interface JsonLinesOptions {
  baseURL: string;
  apiKey: string;
  model?: string;
  maxTokens?: number;
  contextWindow?: number;
  /** Retries of a 429 or 5xx; default 2. */
  maxRetries?: number;
}

/** One line of an answer. */
type Line =
  | { text: string }
  | { call: { id: string; name: string; arguments: string } }
  | { usage: { input: number; output: number; cached: number } }
  | { stop: StopReason };

export class JsonLinesProvider implements Provider {
  readonly name = "json-lines";
  readonly model: string;
  readonly contextWindow: number | undefined;
  readonly toolResultContent = ["text"] as const;

  constructor(private readonly options: JsonLinesOptions) {
    this.model = options.model ?? "lines-1";
    this.contextWindow = resolveContextWindow(
      this.name,
      options.contextWindow,
      this.model === "lines-1" ? 32_000 : undefined,
    );
  }

  /** Everything as configured but the model (its context window is the new model's own). */
  withModel(model: string): JsonLinesProvider {
    const { contextWindow: _ownWindow, ...options } = this.options;
    return new JsonLinesProvider({ ...options, model });
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const names = createToolNameMap(request.tools.map((tool) => tool.name));
    const scope = requestSignal(request.signal);
    try {
      const response = await this.send(this.body(request, names), scope.signal);
      yield* this.read(response, names);
    } catch (error) {
      if (request.signal?.aborted) return;
      throw error;
    } finally {
      scope.dispose();
    }
  }

  private body(request: ProviderRequest, names: ToolNameMap): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: this.model,
      messages: request.messages.map((message) => wireMessage(message, names)),
    };
    if (request.system) body.system = request.system;
    if (this.options.maxTokens !== undefined) body.max_tokens = this.options.maxTokens;
    if (request.tools.length > 0) {
      body.tools = request.tools.map((tool) => names.toWire(tool.name));
      if (request.toolChoice === "required") body.tool_choice = "required";
    }
    return body;
  }

  /** The response to a turn, after retrying what the API asks to retry. */
  private async send(body: unknown, signal: AbortSignal | undefined): Promise<Response> {
    const url = `${this.options.baseURL}/turns`;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: {
            authorization: `Bearer ${this.options.apiKey}`,
            "content-type": "application/json",
          },
          body: JSON.stringify(body),
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        throw new ModelError("connection_failed", `Cannot reach ${url}: ${describeCause(error)}`);
      }
      if (response.ok) return response;
      const retry = response.status === 429 || response.status >= 500;
      if (retry && attempt < (this.options.maxRetries ?? 2)) {
        await response.body?.cancel();
        await sleep(Number(response.headers.get("retry-after-ms") ?? 500), undefined, { signal });
        continue;
      }
      throw await this.apiError(response);
    }
  }

  /** The API's error, with the key taken out where the server echoed it. */
  private async apiError(response: Response): Promise<ModelError> {
    const { error } = (await response.json().catch(() => ({}))) as { error?: string };
    const message = (error ?? response.statusText).split(this.options.apiKey).join("***");
    const requestId = response.headers.get("request-id");
    return new ModelError(
      modelErrorCode(response.status),
      `JSON lines API error ${response.status}: ${message}`,
      { details: { status: response.status, ...(requestId ? { request_id: requestId } : {}) } },
    );
  }

  private async *read(response: Response, names: ToolNameMap): AsyncIterable<ProviderEvent> {
    const decoder = new TextDecoder();
    let pending = "";
    try {
      for await (const chunk of response.body ?? []) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines.filter((each) => each.trim() !== "")) {
          const event = toEvent(JSON.parse(line) as Line, names);
          yield event;
          if (event.type === "stop") return;
        }
      }
    } catch (error) {
      if (ModelError.is(error)) throw error;
      throw new ModelError("stream_interrupted", `The stream broke off: ${describeCause(error)}`);
    }
    // Without its stop line the answer is cut short, however cleanly the response ended.
    throw new ModelError("stream_incomplete", "The stream ended before its stop line.");
  }
}

function toEvent(line: Line, names: ToolNameMap): ProviderEvent {
  if ("text" in line) return { type: "text-delta", text: line.text };
  if ("call" in line) {
    const { id, name, arguments: json } = line.call;
    return { type: "tool-call", call: { id, name: names.fromWire(name), arguments: parsed(json) } };
  }
  if ("usage" in line) {
    const { input, output, cached } = line.usage;
    return {
      type: "usage",
      usage: { inputTokens: input, outputTokens: output, cacheReadTokens: cached },
    };
  }
  return { type: "stop", reason: line.stop };
}

/** Arguments the model broke stay the raw text: the registry answers invalid_arguments. */
function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

function wireMessage(message: Message, names: ToolNameMap): Record<string, unknown> {
  switch (message.role) {
    case "user":
      return {
        role: "user",
        text: typeof message.content === "string" ? message.content : textOf(message.content),
      };
    case "assistant":
      return {
        role: "assistant",
        text: message.text,
        calls: message.toolCalls.map((call) => ({
          id: call.id,
          name: names.toWire(call.name),
          arguments:
            typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
        })),
      };
    case "tool":
      return { role: "tool", call_id: message.callId, text: textOf(message.result.content) };
  }
}

/** The JSON lines provider: `createAgent({ provider: jsonLines({ baseURL, apiKey }) })`. */
export function jsonLines(options: JsonLinesOptions): JsonLinesProvider {
  return new JsonLinesProvider(options);
}
