/**
 * `@pseudoclaude/core/process`: for tool sources that start child processes (MCP servers over
 * stdio, shell commands, skill scripts). Each child runs in its own process group, so the group
 * can be ended whole, grandchildren included; tracked groups are ended when the process exits,
 * so no child outlives the agent. {@link ProcessRunner} runs a program to its end with a
 * bounded output and the call's one timeout; {@link processResult} tells the model how it
 * ended.
 *
 * @module @pseudoclaude/core/process
 */
export { HeadTailBuffer } from "../process/head-tail-buffer.js";
export {
  groupAlive,
  signalGroup,
  terminateGroup,
  trackGroup,
  untrackGroup,
} from "../process/process-group.js";
export { type ProcessResultLabel, processResult } from "../process/process-result.js";
export {
  createProcessRunner,
  DefaultProcessRunner,
  type ProcessOutcome,
  type ProcessRequest,
  type ProcessRunner,
  type ProcessStopReason,
} from "../process/process-runner.js";
