import { type ObjectSharedContext, TimeoutError } from "@restatedev/restate-sdk";
import type { EventWaiter } from "./event-bell.js";
import { eventBellName, MAX_EVENTS_WAIT_MS } from "./event-mark.js";
import { jsonSerde } from "./json-serde.js";
import { type DurableEventPage, readEvents } from "./run-events.js";

/**
 * What the shared `events` handler is asked: the batch to start from, and optionally how long
 * to wait (in Restate, holding no worker) when there is nothing new, and for which run.
 */
export interface DurableEventQuery {
  after?: number;
  /** Wait up to this long for the next batch (at most 240 s). Default 0: answer at once. */
  waitMs?: number;
  /** The run the caller follows: another run's events are nothing new to it. */
  run?: string;
}

/**
 * The shared `events` handler: the latest run's events from batch `after` on. With `waitMs`
 * and nothing new for the caller, it waits for the run's next batch on an awakeable that the
 * session's event bell resolves (or for `waitMs`), then answers the empty page: the caller
 * asks again at once and reads the new state. A run waiting an hour for an approval costs a
 * follower two invocations per wait (this one and its `listen`), not one every 200 ms.
 */
export async function answerEvents(
  ctx: ObjectSharedContext,
  object: string,
  query: DurableEventQuery | null | undefined,
): Promise<DurableEventPage> {
  const page = await readEvents(ctx, Number(query?.after ?? 0) || 0);
  const waitMs = Math.min(MAX_EVENTS_WAIT_MS, Math.max(0, Number(query?.waitMs ?? 0) || 0));
  const news = page.events.length > 0 && (query?.run === undefined || page.run === query.run);
  if (news || waitMs === 0) return page;
  const { id, promise } = ctx.awakeable<null>();
  ctx.genericSend<EventWaiter>({
    service: eventBellName(object),
    method: "listen",
    key: ctx.key,
    parameter: { awakeable: id, seen: { run: page.run, next: page.next } },
    inputSerde: jsonSerde<EventWaiter>(),
  });
  try {
    await promise.orTimeout(waitMs);
  } catch (error) {
    if (!(error instanceof TimeoutError)) throw error;
  }
  return { run: page.run, next: Number(query?.after ?? 0) || 0, events: [] };
}
