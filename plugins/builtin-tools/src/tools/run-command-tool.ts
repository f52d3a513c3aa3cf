import {
  defineTool,
  type Tool,
  type ToolResult,
  toolFailure,
  toolSuccess,
} from "@pseudoclaude/core";
import { z } from "zod";
import type { CommandOutcome } from "../process/command-runner.js";
import { BUILTIN_SOURCE_ID, confineExisting, isToolResult, type ToolKit } from "./tool-kit.js";

const input = z.strictObject({
  command: z.string().min(1).describe("Shell command line, run as `sh -c COMMAND`."),
  cwd: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Working directory: relative to the workspace, or absolute inside it. Default: the workspace.",
    ),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "End the command after this many milliseconds. It can only shorten the call's own timeout, never extend it.",
    ),
});

/** `run_command`: one shell command in its own process group, bounded and always ended. */
export function runCommandTool(kit: ToolKit): Tool {
  return defineTool({
    name: "run_command",
    description: `Run a shell command in the workspace (or \`cwd\` inside it) and return its output (stdout and stderr interleaved; the beginning and end are kept when longer than ${kit.settings.maxOutputChars} characters) with its exit code. Standard input is empty, so interactive prompts fail instead of waiting. On timeout the command and everything it started are ended; background processes do not outlive the command.`,
    input,
    safety: "side_effect",
    source: BUILTIN_SOURCE_ID,
    category: "command",
    permissionKey: { argument: "command", match: "command" },
    ...(kit.settings.commandTimeoutMs !== undefined
      ? { timeoutMs: kit.settings.commandTimeoutMs }
      : {}),
    async execute(args, context) {
      const checked = await confineExisting(kit, args.cwd ?? ".");
      if (isToolResult(checked)) return checked;
      const { path: cwd, info } = checked;
      if (!info.isDirectory()) {
        return toolFailure("tool_error", `cwd ${cwd.display} is not a directory.`);
      }
      // The argument may shorten the one effective timeout; the registry's signal covers the rest.
      const deadlineMs =
        args.timeout_ms !== undefined && args.timeout_ms < context.timeoutMs
          ? args.timeout_ms
          : undefined;
      const outcome = await kit.commands.run({
        shell: kit.settings.shell,
        command: args.command,
        cwd: cwd.real,
        maxOutputChars: kit.settings.maxOutputChars,
        killGraceMs: kit.settings.killGraceMs,
        signal: context.signal,
        ...(deadlineMs !== undefined ? { deadlineMs } : {}),
      });
      return toResult(
        outcome,
        cwd.display,
        deadlineMs ?? context.timeoutMs,
        deadlineMs !== undefined,
      );
    },
  });
}

/**
 * A command that exited 0 is a success. Any other end is a failure the model sees with the
 * output: a non-zero exit or a signal is `tool_error`, our timeout is `timeout`, a cancel is
 * `cancelled`. Exit code and signal are in `structured` and `metadata` either way.
 */
function toResult(
  outcome: CommandOutcome,
  cwd: string,
  timeoutMs: number,
  fromArgument: boolean,
): ToolResult {
  const status = describeStatus(outcome, timeoutMs, fromArgument);
  const structured = {
    exit_code: outcome.exitCode,
    signal: outcome.signal,
    timed_out: outcome.stopped === "deadline" || outcome.stopped === "timeout",
    ...(outcome.stopped ? { stopped: outcome.stopped } : {}),
    ...(outcome.killSignal ? { killed_with: outcome.killSignal } : {}),
    ...(outcome.leftoversEnded ? { background_processes_ended: true } : {}),
    output_chars: outcome.outputChars,
    truncated: outcome.truncated,
    duration_ms: outcome.durationMs,
    cwd,
  };
  const metadata = { exit_code: outcome.exitCode, signal: outcome.signal };
  const body = outcome.output === "" ? "(no output)" : outcome.output.replace(/\n$/, "");
  const content = [{ type: "text" as const, text: `${body}\n[${status}]` }];
  if (outcome.spawnError) {
    return toolFailure("tool_error", `Could not start the command: ${outcome.spawnError}`, {
      structured,
      metadata,
    });
  }
  if (outcome.stopped) {
    const code =
      outcome.stopped === "deadline" || outcome.stopped === "timeout" ? "timeout" : "cancelled";
    return toolFailure(code, status, { content, structured, metadata });
  }
  if (outcome.exitCode !== 0)
    return toolFailure("tool_error", status, { content, structured, metadata });
  return toolSuccess(content, { structured, metadata });
}

function describeStatus(outcome: CommandOutcome, timeoutMs: number, fromArgument: boolean): string {
  const ended = outcome.killSignal
    ? `; its process group was ended with ${outcome.killSignal}`
    : "";
  const leftovers = outcome.leftoversEnded ? "; background processes it left were ended" : "";
  switch (outcome.stopped) {
    case "deadline":
    case "timeout":
      return `Command timed out after ${timeoutMs} ms${fromArgument ? " (its timeout_ms)" : ""}${ended}.`;
    case "cancelled":
      return `Command cancelled${ended}.`;
    case "closed":
      return `Command stopped because the agent closed${ended}.`;
    default:
      if (outcome.signal) return `Command ended by signal ${outcome.signal}${leftovers}.`;
      return `Exit code ${outcome.exitCode}${leftovers}.`;
  }
}
