import * as restate from "@restatedev/restate-sdk";
import { type EventMark, eventBellName } from "./event-mark.js";
import { DEFAULT_OBJECT_NAME } from "./state-keys.js";

/** Someone waiting for a session's next batch: the awakeable to resolve, and what it saw. */
export interface EventWaiter {
  awakeable: string;
  seen: EventMark;
}

const RUNG_KEY = "rung";
const WAITERS_KEY = "waiters";
/** Waiters past this many are dropped oldest first: they time out and ask again anyway. */
const MAX_WAITERS = 64;

/**
 * Wakes the followers of a session when its run writes events, so that a follower waits in
 * Restate (on an awakeable, holding no worker) instead of asking every 200 ms. It is its own
 * virtual object, keyed by the session: the session object's lock is held by its run (for
 * hours while it waits for an approval), and its shared `events` handler may not write state,
 * so the waiters cannot live there. `listen` registers a waiter (woken at once if the stream
 * moved past what it saw); the run's `ring`, at each batch, wakes them all.
 */
export function durableEventBell(options: { name?: string | undefined } = {}) {
  return restate.object({
    name: eventBellName(options.name ?? DEFAULT_OBJECT_NAME),
    handlers: {
      async listen(ctx: restate.ObjectContext, waiter: EventWaiter): Promise<void> {
        const rung = await ctx.get<EventMark>(RUNG_KEY);
        if (rung && moved(rung, waiter.seen)) {
          ctx.resolveAwakeable(waiter.awakeable, null);
          return;
        }
        const waiters = (await ctx.get<EventWaiter[]>(WAITERS_KEY)) ?? [];
        ctx.set(WAITERS_KEY, [...waiters, waiter].slice(-MAX_WAITERS));
      },
      async ring(ctx: restate.ObjectContext, mark: EventMark): Promise<void> {
        ctx.set(RUNG_KEY, mark);
        for (const waiter of (await ctx.get<EventWaiter[]>(WAITERS_KEY)) ?? [])
          ctx.resolveAwakeable(waiter.awakeable, null);
        ctx.clear(WAITERS_KEY);
      },
    },
  });
}

/**
 * The stream moved past what a waiter saw: more batches, or another run. A ring of the same
 * run still on its way (behind what the waiter read) does not count: when it comes, it wakes
 * the waiter, which then finds nothing new and waits again. Another run always counts, so a
 * waiter never sleeps through a run change the bell has not heard of yet (it asks again).
 */
function moved(rung: EventMark, seen: EventMark): boolean {
  return rung.run !== seen.run || rung.next > seen.next;
}
