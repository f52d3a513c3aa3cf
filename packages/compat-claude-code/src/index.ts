/**
 * `@pseudoclaude/compat-claude-code`: Claude Code's file formats as Claude Code reads them, in
 * one place. The Skills, hooks and agents plugins read users' Claude Code files through it, so
 * a difference from Claude Code is fixed once, here.
 */
export const CLAUDE_CODE_COMPAT = "claude-code";

export {
  CLAUDE_CODE_HOOK_EVENTS,
  type ClaudeCodeExit,
  type ClaudeCodeHookEvent,
  claudeCodeExit,
  claudePermissionMode,
  type HookInputBase,
  isClaudeCodeHookEvent,
  MATCHER_FIELDS,
  TOOL_MATCHER_EVENTS,
} from "./hook-events.js";
export {
  additionalContextOf,
  blockOf,
  type PermissionRequestAnswer,
  type PreToolUseAnswer,
  permissionRequestAnswer,
  preToolUseAnswer,
  stopOf,
  systemMessageOf,
} from "./hook-output.js";
export {
  type ClaudeSettingsFile,
  type ClaudeSettingsScope,
  claudeSettingsFiles,
} from "./settings-files.js";
