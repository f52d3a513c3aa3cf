/**
 * `@pseudoclaude/durable-restate`: durable agent runs on Restate. A session is a virtual
 * object, each model turn and tool call a journaled step, approvals awakeables; runs outlive
 * their worker. See docs/durable-runs.md.
 *
 * @module @pseudoclaude/durable-restate
 */
import "./with-resolvers.js";

export type { DurableEventQuery } from "./answer-events.js";
export {
  type DurableAgentOptions,
  type DurableRunInput,
  type DurableWorker,
  type DurableWorkerOptions,
  durableAgent,
  serveDurableAgent,
} from "./durable-agent.js";
export { durableEventBell, type EventWaiter } from "./event-bell.js";
export { type EventMark, eventBellName, MAX_EVENTS_WAIT_MS } from "./event-mark.js";
export { ObjectSessionStore } from "./object-session-store.js";
export { PENDING_KEY, type PendingApproval } from "./pending-approval.js";
export { RestateJournal } from "./restate-journal.js";
export {
  type DurableEvent,
  type DurableEventPage,
  EVENT_BATCHES_KEY,
  EVENTS_RUN_KEY,
  eventBatchKey,
  RunEventLog,
  STREAMED_EVENTS,
  type StreamedEventName,
} from "./run-events.js";
export { DEFAULT_OBJECT_NAME, ENTRIES_KEY } from "./state-keys.js";
export { stderrLogger } from "./stderr-logger.js";
