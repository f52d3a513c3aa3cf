import type { ToolResult } from "./tool-result.js";

/** Where a long-running task stands (MCP's task states). */
export type ToolTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** What a tool reports about the task its call became. */
export interface ToolTaskUpdate {
  /** The source's id for the task (an MCP `taskId`). */
  taskId: string;
  status: ToolTaskStatus;
  /** The source's words for where it stands ("step 2 of 5"). */
  statusMessage?: string;
}

/**
 * How a source finds one of its tasks again from another process: plain JSON, opaque to the
 * kernel (an MCP task's server, era and id). A durable run records it, so a worker that takes
 * over polls the same task instead of starting the call again.
 */
export type ToolTaskReference = { readonly [key: string]: unknown };

/**
 * How a call that may become a task runs, chosen by whoever runs it (a durable run's journal):
 * `handoff` returns at once when the call becomes a task, with {@link taskHandoffResult}, so the
 * task's reference is recorded before anyone waits for it; `resume` waits for a task an earlier
 * step handed off. Without a mode, a task is waited for within the call.
 */
export type ToolTaskMode = { handoff: true } | { resume: ToolTaskReference };

/** Terminal states: the task ended and will not change again. */
export function isTerminalTaskStatus(status: ToolTaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** Metadata key of a handed-off task's result (see {@link ToolTaskMode}). */
const HANDOFF_KEY = "task_handoff";

/** The result of a call handed off as a task: its reference, for the step that waits for it. */
export function taskHandoffResult(task: ToolTaskUpdate, reference: ToolTaskReference): ToolResult {
  return {
    ok: true,
    content: [{ type: "text", text: `Task ${task.taskId} started (${task.status}).` }],
    metadata: { [HANDOFF_KEY]: { task_id: task.taskId, reference } },
  };
}

/** The task reference a handed-off call's result carries, if it is one. */
export function handedOffTask(result: ToolResult): ToolTaskReference | undefined {
  const handoff = result.metadata?.[HANDOFF_KEY] as { reference?: unknown } | undefined;
  const reference = handoff?.reference;
  return reference !== null && typeof reference === "object" && !Array.isArray(reference)
    ? (reference as ToolTaskReference)
    : undefined;
}
