/**
 * `@pseudoclaude/plugin-hooks`: hooks from config in the format Claude Code uses, so hooks
 * people already wrote work unchanged (see docs/hooks.md).
 *
 * @module @pseudoclaude/plugin-hooks
 */
export { CLAUDE_TOOL_NAMES } from "./claude-tool-names.js";
export {
  type HookFailureCount,
  HookFailureLog,
  hookFailureKey,
  hookFailureLog,
} from "./hook-failure-log.js";
export { HOOKS_PLUGIN_NAME, type HooksPluginOptions, hooks } from "./hooks-plugin.js";
export {
  HOOK_EVENTS,
  HOOKS_SECTION,
  HOOKS_SECTION_SPEC,
  type HookCommand,
  type HookEvent,
  type HookScope,
  hookSubject,
  loadHookCommands,
} from "./hooks-settings.js";
