import type { ClaudeCodeHookEvent } from "@pseudoclaude/compat-claude-code";

/**
 * The Claude Code hook events this loop runs, each at its matching point (docs/hooks.md has
 * the table). Claude Code's other events are reported as `hook_event_unsupported`.
 */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Notification",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionStart",
  "SessionEnd",
] as const satisfies readonly ClaudeCodeHookEvent[];
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * Our own config's hooks of these events fail closed unless they say otherwise: a guard
 * written for this agent that breaks must not let the call (or prompt) through.
 */
export const CLOSED_BY_DEFAULT: readonly HookEvent[] = [
  "PreToolUse",
  "PermissionRequest",
  "UserPromptSubmit",
];

/** Our own key in the `hooks` section (not an event): the failure default for Claude Code's files. */
export const ON_FAILURE_KEY = "on_failure";

/** Ours (Claude Code's `disableAllHooks`): `true` turns hooks off, within the layer's reach. */
export const DISABLE_ALL_KEY = "disable_all";

/** Ours (Claude Code's `allowManagedHooksOnly`): `true` in managed settings runs only theirs. */
export const MANAGED_ONLY_KEY = "managed_only";

/** The keys of the `hooks` section that are settings, not events. */
export const SETTING_KEYS: readonly string[] = [ON_FAILURE_KEY, DISABLE_ALL_KEY, MANAGED_ONLY_KEY];
