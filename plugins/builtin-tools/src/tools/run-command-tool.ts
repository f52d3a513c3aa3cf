import { defineTool, type Tool, toolFailure } from "@pseudoclaude/core";
import { processResult } from "@pseudoclaude/core/process";
import { z } from "zod";
import { outputProgress } from "../process/output-progress.js";
import { BUILTIN_TOOL_ALIASES } from "./builtin-tool-names.js";
import { confineExisting } from "./confined-files.js";
import { BUILTIN_SOURCE_ID, isToolResult, type ToolKit } from "./tool-kit.js";

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
    aliases: BUILTIN_TOOL_ALIASES.run_command,
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
        // The settings' variables (Claude Code's `env`) over this process's environment.
        ...(kit.settings.env ? { env: kit.settings.env } : {}),
        ...(deadlineMs !== undefined ? { deadlineMs } : {}),
        // Output as progress only for a listener (a chat): nobody else pays for the line split.
        ...(context.progressWanted ? { onOutput: outputProgress(context.reportProgress) } : {}),
      });
      return processResult(outcome, {
        noun: "Command",
        cwd: cwd.display,
        timeoutMs: deadlineMs ?? context.timeoutMs,
        fromArgument: deadlineMs !== undefined,
      });
    },
  });
}
