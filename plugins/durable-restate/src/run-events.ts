import type { Agent, AgentEvents } from "@pseudoclaude/core";
import { type ObjectContext, type ObjectSharedContext } from "@restatedev/restate-sdk";
import { type EventMark, eventBellName } from "./event-mark.js";
import { jsonSerde } from "./json-serde.js";
import type { PendingApproval } from "./pending-approval.js";
import { DEFAULT_OBJECT_NAME } from "./state-keys.js";

/** Object state keys of the event stream: which run it is, how many batches, each batch. */
export const EVENTS_RUN_KEY = "events_run";
export const EVENT_BATCHES_KEY = "event_batches";
export const eventBatchKey = (index: number): string => `events-${index}`;

/**
 * The agent events a durable run streams. Text comes whole, once per model turn (a turn is one
 * step: its deltas are not recorded, so a replay could not stream them again).
 */
export const STREAMED_EVENTS = [
  "run-start",
  "turn-start",
  "text-delta",
  "tool-call-start",
  "tool-decision",
  "tool-task",
  "tool-call-end",
  "turn-end",
  "output-repair",
  "compaction",
  "run-end",
] as const satisfies readonly (keyof AgentEvents)[];

export type StreamedEventName = (typeof STREAMED_EVENTS)[number];

/** One event of a durable run's stream, as JSON: an agent event, or an approval it waits for. */
export type DurableEvent =
  | { [E in StreamedEventName]: { type: E; data: AgentEvents[E][0] } }[StreamedEventName]
  | { type: "approval-waiting"; data: PendingApproval };

/** What the shared `events` handler answers: the run streaming, and its events from `after`. */
export interface DurableEventPage {
  /** The invocation id of the run the events belong to (the session's latest); null before any. */
  run: string | null;
  /** The batch to ask for next (`after`). */
  next: number;
  events: DurableEvent[];
}

/**
 * A durable run's events, kept in its object's state so that anyone can follow the run from
 * the shared `events` handler (`pseudoclaude run --durable restate` does). Events are queued
 * as the agent raises them and written at each step boundary as a batch recorded by its own
 * `ctx.run`: a replay, which raises the replayed part's events again, writes the recorded
 * batch instead, so the stream holds every event once and the journal stays deterministic.
 */
export class RunEventLog {
  private queue: DurableEvent[] = [];
  private flushes = 0;
  private batches = 0;

  constructor(
    private readonly ctx: ObjectContext,
    /** The session object's name: its event bell is named after it. */
    private readonly object: string = DEFAULT_OBJECT_NAME,
  ) {}

  /** Start the stream of this run: the session's previous run's events are dropped. */
  async start(agent: Agent): Promise<void> {
    const old = (await this.ctx.get<number>(EVENT_BATCHES_KEY)) ?? 0;
    for (let index = 0; index < old; index += 1) this.ctx.clear(eventBatchKey(index));
    this.ctx.set(EVENT_BATCHES_KEY, 0);
    this.ctx.set(EVENTS_RUN_KEY, this.ctx.request().id);
    for (const type of STREAMED_EVENTS) {
      if (type === "text-delta") continue;
      agent.on(type, (data: unknown) => {
        if (type === "turn-end") {
          const { turn, text, via } = data as AgentEvents["turn-end"][0];
          if (text !== "")
            this.push({ type: "text-delta", data: { turn, text, ...(via ? { via } : {}) } });
        }
        this.push({ type, data } as DurableEvent);
      });
    }
  }

  push(event: DurableEvent): void {
    // JSON now: the event crosses to the server, and a later change to the object must not show.
    this.queue.push(JSON.parse(JSON.stringify(event)) as DurableEvent);
  }

  /** Write what was queued since the last step boundary (taken now, in this tick). */
  async flush(): Promise<void> {
    const drained = this.queue;
    this.queue = [];
    const batch = await this.ctx.run(`events-${++this.flushes}`, async () => drained);
    if (batch.length === 0) return;
    this.ctx.set(eventBatchKey(this.batches), batch);
    this.batches += 1;
    this.ctx.set(EVENT_BATCHES_KEY, this.batches);
    // Wake whoever waits for this session's events (one message per batch, none per poll).
    this.ctx.genericSend<EventMark>({
      service: eventBellName(this.object),
      method: "ring",
      key: this.ctx.key,
      parameter: { run: this.ctx.request().id, next: this.batches },
      inputSerde: jsonSerde<EventMark>(),
    });
  }
}

/** The latest run's events from batch `after` on, as the session's state holds them. */
export async function readEvents(
  ctx: ObjectSharedContext,
  after: number,
): Promise<DurableEventPage> {
  const run = (await ctx.get<string>(EVENTS_RUN_KEY)) ?? null;
  const next = (await ctx.get<number>(EVENT_BATCHES_KEY)) ?? 0;
  const events: DurableEvent[] = [];
  for (let index = Math.max(0, after); index < next; index += 1)
    events.push(...((await ctx.get<DurableEvent[]>(eventBatchKey(index))) ?? []));
  return { run, next, events };
}
