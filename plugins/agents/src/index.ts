/**
 * `@pseudoclaude/plugin-agents`: sub-agents from the Markdown files Claude Code users already
 * keep (see docs/subagents.md).
 *
 * @module @pseudoclaude/plugin-agents
 */
export { AGENT_FOLDERS, type AgentFile, agentSubject, loadAgentFiles } from "./agent-files.js";
export { AGENTS_PLUGIN_NAME, type AgentsPluginOptions, agents } from "./agents-plugin.js";
