import { type ToolResult, toolFailure } from "@pseudoclaude/core";
import type { ConfinedPath, PathGuard } from "../paths/path-guard.js";
import type { CommandRunner } from "../process/command-runner.js";
import type { BuiltinToolsSettings } from "../settings/builtin-tools-settings.js";

/** Id of the tool source every built-in tool belongs to. */
export const BUILTIN_SOURCE_ID = "builtin";

/** What every built-in tool is built with. */
export interface ToolKit {
  guard: PathGuard;
  settings: BuiltinToolsSettings;
  commands: CommandRunner;
}

/**
 * A confined path, or the refusal to hand back as the tool's result: `invalid_arguments`,
 * naming the path, before anything is read or written.
 */
export async function confine(kit: ToolKit, input: string): Promise<ConfinedPath | ToolResult> {
  const checked = await kit.guard.check(input);
  if (checked.ok) return checked.path;
  return toolFailure("invalid_arguments", checked.message, { metadata: { path: input } });
}

export function isToolResult(value: ConfinedPath | ToolResult): value is ToolResult {
  return "ok" in value && "content" in value;
}

/** Text of a file system error a model can act on: `ENOENT` becomes "does not exist". */
export function describeFsError(error: unknown, shown: string): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case "ENOENT":
      return `${shown} does not exist.`;
    case "EACCES":
    case "EPERM":
      return `Permission denied for ${shown}.`;
    case "EISDIR":
      return `${shown} is a directory.`;
    case "ENOTDIR":
      return `A part of ${shown} is not a directory.`;
    default:
      return `${shown}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** `     7\tline`: the line-number layout of `cat -n`, which models read reliably. */
export function numberedLine(number: number, text: string): string {
  return `${String(number).padStart(6)}\t${text}`;
}
