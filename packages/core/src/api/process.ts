/**
 * `@pseudoclaude/core/process`: for tool sources that start child processes (MCP servers over
 * stdio, shell commands). Each child runs in its own process group, so the group can be ended
 * whole, grandchildren included; tracked groups are ended when the process exits, so no child
 * outlives the agent.
 *
 * @module @pseudoclaude/core/process
 */
export {
  groupAlive,
  signalGroup,
  terminateGroup,
  trackGroup,
  untrackGroup,
} from "../util/process-group.js";
