import {
  MATCHER_FIELDS,
  systemMessageOf,
  TOOL_MATCHER_EVENTS,
} from "@pseudoclaude/compat-claude-code";
import type { Diagnostic } from "@pseudoclaude/core";
import { type HookFailureLog, hookFailureKey } from "./hook-failure-log.js";
import { type HookCommand, type HookEvent, matcherPattern } from "./hooks-settings.js";
import type { HookAnswer } from "./run-hook-command.js";

/** Runs one hook command with the event's JSON on stdin. */
export type RunHook = (
  hook: HookCommand,
  input: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<HookAnswer>;

/**
 * What one hook said, after its failure rule: `ok` (exit 0, with its JSON or plain stdout),
 * `block` (exit 2 with stderr as the reason, or a failure of a hook whose `on_failure` is
 * `block`), or `failed` (a non-blocking error: already reported and counted, nothing to do).
 */
export type HookOutcome =
  | { kind: "ok"; hook: HookCommand; json?: Record<string, unknown>; stdout: string }
  | { kind: "block"; hook: HookCommand; reason: string; failed: boolean }
  | { kind: "failed"; hook: HookCommand };

/**
 * The hook commands by event, and the one place their answers are read: matchers, the event's
 * stdin JSON (with Claude Code's common fields), exit codes and the failure rule. A failure is
 * never silent: it is the `hook_failed` diagnostic (shown on stderr by the CLI, a `diagnostic`
 * event for others) and is counted for `pseudoclaude hooks`.
 */
export class HookDispatch {
  constructor(
    private readonly commands: readonly HookCommand[],
    private readonly run: RunHook,
    private readonly report: (diagnostic: Diagnostic) => void,
    private readonly failures: HookFailureLog | undefined,
  ) {}

  has(event: HookEvent): boolean {
    return this.commands.some((command) => command.event === event);
  }

  /**
   * The hooks of `event` whose matcher fits, one after another, each answer as it comes. A
   * caller that stops at a block stops the rest from running, as a deny stops the call.
   * `match` is what the matcher is tested against: the tool's name for tool events, else the
   * event's own field (SessionStart's `source`, PreCompact's `trigger`…).
   */
  async *each(
    event: HookEvent,
    input: Record<string, unknown>,
    signal: AbortSignal,
    /** The value the matcher is tested on: for tool events, every name of the tool. */
    match?: string | readonly string[],
  ): AsyncGenerator<HookOutcome> {
    for (const hook of this.commands) {
      if (hook.event !== event || !matches(hook, match)) continue;
      const answer = await this.run(hook, { ...input, hook_event_name: event }, signal);
      if (answer.kind === "ok") {
        const message = systemMessageOf(answer.json);
        if (message !== undefined) this.tell(hook, message);
        yield { kind: "ok", hook, ...answerFields(answer) };
      } else if (answer.kind === "block")
        yield { kind: "block", hook, reason: answer.reason, failed: false };
      else {
        const reason = this.failed(hook, answer);
        yield hook.onFailure === "block"
          ? { kind: "block", hook, reason, failed: true }
          : { kind: "failed", hook };
      }
    }
  }

  /**
   * Show the user what a hook said for them (Claude Code's `systemMessage`, or stderr of an
   * exit 2 where the event cannot block): the `info` diagnostic `hook_message`.
   */
  tell(hook: HookCommand, message: string): void {
    this.report({
      stage: "hooks",
      severity: "info",
      code: "hook_message",
      file: hook.file,
      ...(hook.line !== undefined ? { line: hook.line } : {}),
      item: hook.command,
      message: `${hook.event} hook "${hook.command}": ${message}`,
    });
  }

  /** Say that a hook failed, count it, and return the reason a block would carry. */
  private failed(hook: HookCommand, answer: Extract<HookAnswer, { kind: "failed" }>): string {
    const { why } = answer;
    const blocking = hook.onFailure === "block";
    const where = `${hook.file}${hook.line !== undefined ? `:${hook.line}` : ""}`;
    const effect = blocking
      ? "what it guards was blocked (on_failure: block)"
      : hook.origin === "claude-code"
        ? "a non-blocking error, as in Claude Code: the agent goes on"
        : "the agent goes on (on_failure: continue)";
    this.report({
      stage: "hooks",
      severity: "error",
      code: "hook_failed",
      file: hook.file,
      ...(hook.line !== undefined ? { line: hook.line } : {}),
      item: hook.command,
      message: `${hook.event} hook "${hook.command}" (${where}) failed: ${why}; ${effect}.`,
      // For programs reading the JSON output: what failed and how, without parsing the message.
      details: {
        event: hook.event,
        command: hook.command,
        blocked: blocking,
        ...(answer.exit !== undefined ? { exit_code: answer.exit } : {}),
        ...(answer.stderr !== undefined ? { stderr: answer.stderr } : {}),
      },
    });
    this.failures?.record(hookFailureKey(hook), why);
    return `${hook.event} hook "${hook.command}" failed (${why}), so it was blocked.`;
  }
}

function answerFields(answer: Extract<HookAnswer, { kind: "ok" }>) {
  return answer.json ? { json: answer.json, stdout: answer.stdout } : { stdout: answer.stdout };
}

/**
 * Claude Code's matcher rule: for tool events a regular expression over the tool's names (ours
 * or an alias the tool declares, such as Claude Code's `Bash`); for events with a matcher
 * field, over that field; an empty matcher or `*` matches all, and events with neither ignore
 * the matcher.
 */
function matches(hook: HookCommand, value: string | readonly string[] | undefined): boolean {
  const pattern = matcherPattern(hook.matcher);
  if (!pattern) return true;
  const byTool = TOOL_MATCHER_EVENTS.includes(hook.event);
  if (!byTool && MATCHER_FIELDS[hook.event] === undefined) return true;
  if (value === undefined) return false;
  return typeof value === "string" ? pattern.test(value) : value.some((name) => pattern.test(name));
}
