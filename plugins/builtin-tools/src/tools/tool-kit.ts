import { type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { type ToolResult, toolFailure } from "@pseudoclaude/core";
import type { ConfinedPath, PathGuard } from "@pseudoclaude/core/files";
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

/**
 * A confined path that exists, with its file status; else the result to hand back: the
 * refusal of `confine`, or a `tool_error` saying why it cannot be read.
 */
export async function confineExisting(
  kit: ToolKit,
  input: string,
): Promise<{ path: ConfinedPath; info: Stats } | ToolResult> {
  const confined = await confine(kit, input);
  if (isToolResult(confined)) return confined;
  const info = await stat(confined.real).catch((error: unknown) => error as Error);
  if (info instanceof Error)
    return toolFailure("tool_error", describeFsError(info, confined.display));
  return { path: confined, info };
}

export function isToolResult(value: object): value is ToolResult {
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
