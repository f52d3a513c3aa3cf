/**
 * Where a session's event stream stands: which run it holds and how many batches it has. Shared
 * by the worker and its clients, in a module that loads nothing (the client loads no SDK).
 */
export interface EventMark {
  /** The invocation id of the run the stream belongs to; null before any run. */
  run: string | null;
  /** The batches written so far. */
  next: number;
}

/** The event bell's object name for a session object's name (`pseudoclaude_events`). */
export function eventBellName(object: string): string {
  return `${object}_events`;
}

/** The longest a follower's `events` call may wait for the next batch (under HTTP idle limits). */
export const MAX_EVENTS_WAIT_MS = 240_000;
