/**
 * `@pseudoclaude/durable-restate/client`: durable runs over Restate's HTTP API, without the
 * SDK (submit, follow, wait, approve, list). See docs/durable-runs.md.
 *
 * @module @pseudoclaude/durable-restate/client
 */

export type { DurableEventQuery } from "./answer-events.js";
export type { DurableRunInput } from "./durable-agent.js";
export {
  DEFAULT_ADMIN,
  DEFAULT_INGRESS,
  DurableClient,
  type DurableClientOptions,
  DurableRequestError,
  type DurableRequestErrorCode,
  type DurableSession,
} from "./durable-client.js";
export {
  FOLLOW_WAIT_MS,
  type FollowOptions,
  followRunEvents,
  type RunFollower,
} from "./event-follower.js";
export { type EventMark, eventBellName, MAX_EVENTS_WAIT_MS } from "./event-mark.js";
export type { PendingApproval } from "./pending-approval.js";
export type { DurableEvent, DurableEventPage } from "./run-events.js";
export { DEFAULT_OBJECT_NAME } from "./state-keys.js";
