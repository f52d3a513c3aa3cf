import type { AgentEvents, RunEventName } from "./agent-events.js";
import type { RunResult } from "./run-records.js";

/** What a web framework's handler returns: status and headers over the SSE defaults. */
export interface StreamResponseInit {
  status?: number;
  headers?: Record<string, string>;
}

/**
 * A run as it happens (`agent.stream(prompt)`): iterate it for every event in order (the last
 * is `run-end`), or await `text` / `result`. Leaving the loop early (`break`, the iterator's
 * `return()`) cancels the run, as its `signal` would. It can be iterated once.
 */
export interface AgentStream extends AsyncIterable<AgentStreamEvent> {
  /** The final answer's text; rejects as the run does. */
  readonly text: Promise<string>;
  /** The whole result; rejects as the run does. A cancelled run resolves, `stopReason: "aborted"`. */
  readonly result: Promise<RunResult>;
  /** Stop the run, as its signal would: the events end with `run-end`. */
  cancel(reason?: unknown): void;
  /**
   * The events as a web `Response` of Server-Sent Events (`data: {"type":…}` per event), for
   * any framework that returns one (Hono, Next.js route handlers, Bun, Deno, Node with
   * `Readable.fromWeb`). A client that disconnects cancels the run. Uses up the iteration.
   */
  toResponse(init?: StreamResponseInit): Response;
  /**
   * The run in the AI SDK's UI message stream protocol, for `useChat` front ends (text,
   * reasoning and tool parts; see docs/streaming.md). Uses up the iteration.
   */
  toUIMessageStreamResponse(init?: StreamResponseInit): Response;
}

/**
 * One event of a streamed run: its name as `type`, beside the event's own fields. Every event
 * about the run; `diagnostic` is about the agent (a server's log line), `agent.diagnostics()`
 * keeps those.
 */
export type AgentStreamEvent = {
  [E in RunEventName]: { type: E } & AgentEvents[E][0];
}[RunEventName];
