import type { CallOptions } from "../mcp-session.js";

/**
 * Whether a call goes through the Tasks library, in either era: a task to resume; a tool that
 * requires task execution (the library says plainly when the server cannot run one); a tool
 * that may run as one, on a server that runs tool calls as tasks (2025-11-25: its `tasks`
 * capability for `tools/call`; 2026-07-28: the Tasks extension). Every other call takes the
 * plain path.
 */
export function runsAsTask(options: CallOptions, serverRunsTasks: boolean): boolean {
  const mode = options.taskMode;
  if (mode && "resume" in mode) return true;
  if (options.taskSupport === "required") return true;
  return options.taskSupport === "optional" && serverRunsTasks;
}
