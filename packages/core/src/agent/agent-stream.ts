import { RUN_EVENT_NAMES } from "../contracts/agent-events.js";
import type { AgentStream, AgentStreamEvent } from "../contracts/agent-stream.js";
import { UsageError } from "../errors.js";
import { eventStreamResponse, uiMessageStreamResponse } from "../web/stream-responses.js";
import type { Agent, RunOptions } from "./agent.js";

/**
 * Start `agent.run(prompt)` and stream its events. Events are queued until read, so nothing is
 * lost to a slow reader; a sub-agent's events come with `via`. Only this run's events are
 * streamed: listening starts with the run and stops when it ends.
 */
export function streamRun(agent: Agent, prompt: string, options: RunOptions = {}): AgentStream {
  const controller = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, controller.signal])
    : controller.signal;
  const queue: AgentStreamEvent[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  const notify = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const listeners = RUN_EVENT_NAMES.map((type) => {
    const listener = (payload: object) => {
      queue.push({ type, ...payload } as AgentStreamEvent);
      notify();
    };
    agent.on(type, listener as never);
    return () => agent.off(type, listener as never);
  });
  const result = agent.run(prompt, { ...options, signal }).finally(() => {
    for (const off of listeners) off();
    finished = true;
    notify();
  });
  // The caller may read only the events or only the text: neither leaves a rejection unhandled.
  result.catch(() => {});
  const text = result.then((settled) => settled.text);
  text.catch(() => {});
  let iterated = false;

  let closed = false;
  /**
   * Written by hand rather than as an async generator: a generator's `return()` waits for the
   * `next()` in progress, which waits for the run's next event, so leaving the loop (or a
   * client disconnecting) while a tool runs would not stop the run until that tool ended.
   */
  const events: AsyncIterator<AgentStreamEvent> = {
    async next() {
      while (!closed) {
        const event = queue.shift();
        if (event) return { value: event, done: false };
        if (finished) {
          closed = true;
          // A run that failed ends the loop with its error, after every event it raised.
          await result;
          break;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      return { value: undefined, done: true };
    },
    async return() {
      // Left early (break, return(), a client gone): nobody reads the rest, so the run stops.
      if (!finished) controller.abort();
      closed = true;
      notify();
      return { value: undefined, done: true };
    },
  };

  const stream: AgentStream = {
    text,
    result,
    cancel(reason?: unknown) {
      controller.abort(reason);
    },
    [Symbol.asyncIterator]() {
      if (iterated) throw new UsageError("stream_consumed", "A run's stream can be iterated once.");
      iterated = true;
      return events;
    },
    toResponse: (init) => eventStreamResponse(stream, init),
    toUIMessageStreamResponse: (init) => uiMessageStreamResponse(stream, init),
  };
  return stream;
}

export type { AgentStream, AgentStreamEvent } from "../contracts/agent-stream.js";
