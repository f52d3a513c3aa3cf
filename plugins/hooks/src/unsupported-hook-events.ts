import { CLAUDE_CODE_HOOK_EVENTS, isClaudeCodeHookEvent } from "@pseudoclaude/compat-claude-code";
import type { Diagnostic } from "@pseudoclaude/core";
import { blockingDiagnostic, didYouMean, type SectionEntry } from "@pseudoclaude/core/plugin";
import { HOOK_EVENTS, SETTING_KEYS } from "./hook-events.js";

/**
 * Every key of a hooks section that is neither an event we run nor one of our settings: a
 * Claude Code event with no place in this loop yet, or a name Claude Code does not know either.
 * Each is said once per file, at its line, so a hook never disappears without a word. In our
 * own config an unknown name is most likely a misspelt guard, so it stops the run (with a
 * suggestion), as any restricting section's typo does.
 */
export function reportUnsupportedEvents(
  source: SectionEntry,
  ownConfig: boolean,
  report: (d: Diagnostic) => void,
): void {
  const value = source.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  for (const key of Object.keys(value)) {
    if ((HOOK_EVENTS as readonly string[]).includes(key) || SETTING_KEYS.includes(key)) continue;
    const known = isClaudeCodeHookEvent(key);
    const diagnostic: Diagnostic = {
      stage: "config",
      // Claude Code's files are that program's to check: a warning there.
      severity: known || !ownConfig ? "warning" : "error",
      code: "hook_event_unsupported",
      layer: source.layer,
      source: "hooks",
      item: key,
      ...(source.locateKey ?? source.locate)([key]),
      message: known
        ? `Hook event ${key} in ${source.file} is Claude Code's but has no place in this agent's loop; its hooks do not run (docs/hooks.md lists the events that do).`
        : `Hook event ${key} in ${source.file} is not a Claude Code hook event${didYouMean(key, [...CLAUDE_CODE_HOOK_EVENTS, ...SETTING_KEYS])}; its hooks do not run.`,
    };
    report(!known && ownConfig ? blockingDiagnostic(diagnostic) : diagnostic);
  }
}
