import type { Agent } from "@pseudoclaude/core";
import type { ApprovalDesk } from "./approval-desk.js";
import type { EventHub } from "./event-hub.js";
import type { RunBook } from "./run-book.js";
import type { SpanRecorder } from "./span-recorder.js";
import type { ToolStats } from "./tool-stats.js";

/** What the API's routes share: the agent and the studio's own state around it. */
export interface StudioContext {
  readonly agent: Agent;
  readonly desk: ApprovalDesk;
  readonly hub: EventHub;
  readonly runs: RunBook;
  readonly stats: ToolStats;
  readonly spans: SpanRecorder | undefined;
}
