import type { DurableClient } from "./durable-client.js";
import type { DurableEvent } from "./run-events.js";

/** How long each `events` call waits in Restate for the next batch. */
export const FOLLOW_WAIT_MS = 60_000;
/** After a failed call (no live worker, a worker restarting), wait this long before the next. */
const RETRY_MS = 1_000;
/** Between calls that do not wait (`waitMs: 0`, a plain poll). */
const POLL_MS = 200;

/** Options of {@link followRunEvents}. */
export interface FollowOptions {
  /** How long each `events` call may wait for the next batch. Default 60 s; 0 polls. */
  waitMs?: number | undefined;
}

/** A run being followed: stop it, then drain what was recorded last. */
export interface RunFollower {
  /** Stop following (the call in flight is abandoned). */
  stop(): void;
  /** After `stop`, once the run ended: read what was recorded since the last call. */
  drain(): Promise<void>;
  /** Whether the run streamed text of its own (not a sub-agent's). */
  readonly sawText: boolean;
}

/**
 * Follow one run's events through the session's `events` handler and hand each on once. Each
 * call waits in Restate until the run writes its next batch (or `waitMs`): a run that waits an
 * hour for a person costs two invocations a minute, not the 18,000 an hour that polling every
 * 200 ms cost, and events still arrive as soon as they are written. The handler needs a live
 * worker: while none is, the calls fail and are tried again every second.
 */
export function followRunEvents(
  client: DurableClient,
  session: string,
  invocationId: string,
  deliver: (event: DurableEvent) => void,
  options: FollowOptions = {},
): RunFollower {
  const waitMs = options.waitMs ?? FOLLOW_WAIT_MS;
  const stopped = new AbortController();
  let after = 0;
  let sawText = false;
  const read = async (signal: AbortSignal, wait: number): Promise<void> => {
    const page = await client.events(session, after, signal, { waitMs: wait, run: invocationId });
    // Another run's events (the session's previous run, before ours starts) are not ours.
    if (page.run !== invocationId) return;
    for (const event of page.events) {
      if (event.type === "text-delta" && !event.data.via) sawText = true;
      deliver(event);
    }
    after = page.next;
  };
  const loop = (async () => {
    while (!stopped.signal.aborted) {
      const ok = await read(stopped.signal, waitMs).then(
        () => true,
        () => false,
      );
      if (!ok || waitMs === 0) await sleep(ok ? POLL_MS : RETRY_MS, stopped.signal);
    }
  })();
  return {
    stop: () => stopped.abort(),
    drain: async () => {
      await loop;
      await read(AbortSignal.timeout(10_000), 0).catch(() => undefined);
    },
    get sawText() {
      return sawText;
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
