/**
 * Claude Code's hook events, their stdin JSON and how their answers (exit code, stdout JSON)
 * read, as its hooks reference (code.claude.com/docs/en/hooks) defines them. The hooks plugin
 * maps them onto the loop; this module only knows Claude Code's side, so a difference from
 * Claude Code is fixed here once.
 */

/**
 * Every event name Claude Code's hooks reference lists (2026). A name outside this list in a
 * settings file is not Claude Code's either: it is reported as such, not silently dropped.
 */
export const CLAUDE_CODE_HOOK_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "Notification",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "SessionStart",
  "SessionEnd",
  "Setup",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Elicitation",
  "ElicitationResult",
  "ConfigChange",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "WorktreeCreate",
  "WorktreeRemove",
] as const;

/** One of Claude Code's hook event names. */
export type ClaudeCodeHookEvent = (typeof CLAUDE_CODE_HOOK_EVENTS)[number];

/** Whether `name` is one of Claude Code's hook events (case matters, as in Claude Code). */
export function isClaudeCodeHookEvent(name: string): name is ClaudeCodeHookEvent {
  return (CLAUDE_CODE_HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * The events whose matcher is a pattern over tool names. For the others Claude Code matches
 * another field (SessionStart's `source`, PreCompact's `trigger`, Notification's
 * `notification_type`, SubagentStart's `agent_type`), or ignores the matcher.
 */
export const TOOL_MATCHER_EVENTS: readonly ClaudeCodeHookEvent[] = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
];

/** The stdin field an event's matcher is tested against, when it is not the tool name. */
export const MATCHER_FIELDS: Partial<Record<ClaudeCodeHookEvent, string>> = {
  SessionStart: "source",
  SessionEnd: "reason",
  PreCompact: "trigger",
  Notification: "notification_type",
  SubagentStart: "agent_type",
  SubagentStop: "agent_type",
};

/** What every event's stdin JSON carries, in Claude Code's field names. */
export interface HookInputBase {
  session_id: string;
  cwd: string;
  hook_event_name: ClaudeCodeHookEvent;
  /** Claude Code's `permission_mode` (`default`, `plan`, `acceptEdits`, `bypassPermissions`). */
  permission_mode?: string;
}

/** How Claude Code reads a hook's exit: 0 success, 2 a blocking error, any other a non-blocking one. */
export type ClaudeCodeExit = "success" | "block" | "non_blocking_error";

/** Claude Code's exit-code rule, in one place. */
export function claudeCodeExit(code: number): ClaudeCodeExit {
  if (code === 0) return "success";
  if (code === 2) return "block";
  return "non_blocking_error";
}

/** Our permission modes under Claude Code's names, for `permission_mode` on stdin. */
export function claudePermissionMode(mode: string): string {
  if (mode === "accept-edits") return "acceptEdits";
  if (mode === "bypass") return "bypassPermissions";
  return mode;
}
