import type { CallOptions } from "../session/mcp-session.js";

/**
 * Whether a call goes through the Tasks library (2025-11-25): a task to resume; a tool that
 * requires task execution (the library says plainly when the server cannot); a tool that may
 * run as one, on a server that runs `tools/call` as tasks. Every other call takes the plain path.
 */
export function runsAsTask(
  options: CallOptions,
  serverTasks: { requests?: { tools?: { call?: object } } } | undefined,
): boolean {
  const mode = options.taskMode;
  if (mode && "resume" in mode) return true;
  if (options.taskSupport === "required") return true;
  return options.taskSupport === "optional" && serverTasks?.requests?.tools?.call !== undefined;
}
