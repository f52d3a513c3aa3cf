import type { Stats } from "node:fs";
import { type FileHandle, stat } from "node:fs/promises";
import { type ToolResult, toolFailure } from "@pseudoclaude/core";
import { type ConfinedPath, openConfined, PathSwappedError } from "@pseudoclaude/core/files";
import { isToolResult, type ToolKit } from "./tool-kit.js";

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

/**
 * Open a confined file for reading through a verified descriptor (see `openConfined`): a
 * folder on its path swapped for a link since the check is refused like a path outside.
 */
export async function openChecked(
  kit: ToolKit,
  target: ConfinedPath,
): Promise<FileHandle | ToolResult> {
  try {
    return await openConfined(kit.guard, target.real, target.display);
  } catch (error) {
    return refusedOpen(error, target.display);
  }
}

/** The result for a failed confined open or write: a swap is refused, else the fs error. */
export function refusedOpen(error: unknown, shown: string): ToolResult {
  if (error instanceof PathSwappedError)
    return toolFailure("invalid_arguments", error.message, { metadata: { path: shown } });
  return toolFailure("tool_error", describeFsError(error, shown));
}

/** The result for a failed write: a swap is refused, else "Could not write" with the fs error. */
export function couldNotWrite(error: unknown, shown: string): ToolResult {
  if (error instanceof PathSwappedError) return refusedOpen(error, shown);
  return toolFailure("tool_error", `Could not write ${shown}: ${describeFsError(error, shown)}`);
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
