import type { ToolTaskStatus } from "../contracts/tool-task.js";
import { isTerminalTaskStatus } from "../contracts/tool-task.js";
import type { SessionEntry } from "./session-store.js";

/** One long-running task of a session, as its `task` entries tell it. */
export interface SessionTask {
  taskId: string;
  tool: string;
  callId: string;
  /** The last status written. */
  status: ToolTaskStatus;
  statusMessage?: string;
  /** ISO times of its first and its last entry. */
  started: string;
  updated: string;
  /** Not in a terminal status: still running, or its process stopped before it heard the end. */
  running: boolean;
}

/** The tasks of a session's log, in the order they started, each with its latest status. */
export function sessionTasks(entries: readonly SessionEntry[]): SessionTask[] {
  const tasks = new Map<string, SessionTask>();
  for (const entry of entries) {
    if (entry.type !== "task") continue;
    const known = tasks.get(entry.taskId);
    const task: SessionTask = {
      taskId: entry.taskId,
      tool: entry.tool,
      callId: entry.callId,
      status: entry.status,
      started: known?.started ?? entry.at,
      updated: entry.at,
      running: !isTerminalTaskStatus(entry.status),
    };
    const message = entry.statusMessage ?? known?.statusMessage;
    if (message !== undefined) task.statusMessage = message;
    tasks.set(entry.taskId, task);
  }
  return [...tasks.values()];
}
