import type { AgentStreamEvent, StreamResponseInit } from "../contracts/agent-stream.js";

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  // Proxies such as nginx would otherwise hold the events back until the run ends.
  "x-accel-buffering": "no",
} as const;

/**
 * The run as Server-Sent Events: one `data:` line of JSON per event (`{"type":"text-delta",…}`),
 * the same objects the stream yields, errors as `{"type":"error","message","code"}`. A client
 * that disconnects cancels the run.
 */
export function eventStreamResponse(
  events: AsyncIterable<AgentStreamEvent>,
  init: StreamResponseInit = {},
): Response {
  return sseResponse(
    events,
    (event) => [event.type === "error" ? errorEvent(event) : event],
    (error) => [{ type: "error", stage: "run", ...describe(error) }],
    init,
    {},
  );
}

/**
 * The run in the AI SDK's UI message stream protocol (v1), which `useChat` reads: the
 * agent's own text and reasoning as parts, each tool call's input as it streams
 * (`tool-input-start`, `tool-input-delta`, from providers that stream it) and complete as
 * `tool-input-available`, then
 * `tool-output-available` (or `tool-output-error` for a denied or failed call), one step per
 * model turn. Sub-agents' events are left out: they are inside their parent's tool call.
 */
export function uiMessageStreamResponse(
  events: AsyncIterable<AgentStreamEvent>,
  init: StreamResponseInit = {},
): Response {
  const open = {
    text: undefined as string | undefined,
    reasoning: undefined as string | undefined,
  };
  /** Calls whose input started streaming: `tool-input-start` is sent once for each. */
  const inputs = new Set<string>();
  const close = (): object[] => {
    const chunks: object[] = [];
    if (open.reasoning) chunks.push({ type: "reasoning-end", id: open.reasoning });
    if (open.text) chunks.push({ type: "text-end", id: open.text });
    open.text = open.reasoning = undefined;
    return chunks;
  };
  return sseResponse(
    events,
    (event) => {
      if (event.via) return [];
      switch (event.type) {
        case "run-start":
          return [{ type: "start" }];
        case "turn-start":
          return [{ type: "start-step" }];
        case "text-delta": {
          const start = open.text ? [] : [{ type: "text-start", id: `text-${event.turn}` }];
          open.text ??= `text-${event.turn}`;
          return [...start, { type: "text-delta", id: open.text, delta: event.text }];
        }
        case "reasoning-delta": {
          const start = open.reasoning
            ? []
            : [{ type: "reasoning-start", id: `reasoning-${event.turn}` }];
          open.reasoning ??= `reasoning-${event.turn}`;
          return [...start, { type: "reasoning-delta", id: open.reasoning, delta: event.text }];
        }
        case "tool-input-delta": {
          const start = inputs.has(event.id)
            ? []
            : [{ type: "tool-input-start", toolCallId: event.id, toolName: event.name }];
          inputs.add(event.id);
          return [
            ...start,
            { type: "tool-input-delta", toolCallId: event.id, inputTextDelta: event.delta },
          ];
        }
        case "tool-call-start":
          return [
            ...close(),
            {
              type: "tool-input-available",
              toolCallId: event.call.id,
              toolName: event.call.name,
              input: event.call.arguments,
            },
          ];
        case "tool-call-end":
          return [
            event.result.ok
              ? {
                  type: "tool-output-available",
                  toolCallId: event.call.id,
                  output: {
                    content: event.result.content,
                    ...(event.result.structured !== undefined
                      ? { structured: event.result.structured }
                      : {}),
                  },
                }
              : {
                  type: "tool-output-error",
                  toolCallId: event.call.id,
                  errorText: event.result.error?.message ?? "The tool call failed.",
                },
          ];
        case "turn-end":
          return [...close(), { type: "finish-step" }];
        case "run-end":
          return [...close(), { type: "finish" }];
        default:
          return [];
      }
    },
    (error) => [{ type: "error", errorText: describe(error).message }],
    init,
    { "x-vercel-ai-ui-message-stream": "v1" },
    "[DONE]",
  );
}

function sseResponse(
  events: AsyncIterable<AgentStreamEvent>,
  map: (event: AgentStreamEvent) => object[],
  onError: (error: unknown) => object[],
  init: StreamResponseInit,
  protocolHeaders: Record<string, string>,
  last?: string,
): Response {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  const frame = (data: unknown) =>
    encoder.encode(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Read on until something is written: a pull that enqueues nothing is not called again
      // while the reader waits (the stream's rule), and some events map to no chunk.
      let chunks: object[] = [];
      let ended = false;
      while (chunks.length === 0 && !ended) {
        try {
          const next = await iterator.next();
          ended = next.done === true;
          if (!ended) chunks = map(next.value);
        } catch (error) {
          ended = true;
          chunks = onError(error);
        }
      }
      // A client that went away while the run was read has nobody left to write to.
      if (cancelled) return;
      for (const chunk of chunks) controller.enqueue(frame(chunk));
      if (!ended) return;
      if (last) controller.enqueue(frame(last));
      controller.close();
    },
    async cancel() {
      // The client went away: ending the iterator early cancels the run.
      cancelled = true;
      await iterator.return?.();
    },
  });
  return new Response(body, {
    status: init.status ?? 200,
    headers: { ...SSE_HEADERS, ...protocolHeaders, ...init.headers },
  });
}

function errorEvent(event: Extract<AgentStreamEvent, { type: "error" }>) {
  return { type: "error", stage: event.stage, ...describe(event.error), ...viaOf(event) };
}

function viaOf(event: AgentStreamEvent) {
  return event.via ? { via: event.via } : {};
}

/** An error as JSON can carry it: its message and, for ours, its code. */
function describe(error: unknown): { message: string; code?: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? { message: error.message, code } : { message: error.message };
  }
  return { message: String(error) };
}

export type { StreamResponseInit } from "../contracts/agent-stream.js";
