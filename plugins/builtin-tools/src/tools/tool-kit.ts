import { type Stats } from "node:fs";
import { type FileHandle, stat } from "node:fs/promises";
import { type ToolResult, toolFailure } from "@pseudoclaude/core";
import {
  type ConfinedPath,
  openConfined,
  type PathGuard,
  PathSwappedError,
} from "@pseudoclaude/core/files";
import type { ToolExecutionContext } from "@pseudoclaude/core/plugin";
import type { CommandRunner } from "../process/command-runner.js";
import type { BuiltinToolsSettings } from "../settings/builtin-tools-settings.js";
import { plural } from "../text/bounded-text.js";

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

/** Tools whose path rules also hold for every file a search or listing shows. */
const READ_RULES_OF = "read_file";

/**
 * The files a path rule keeps out of what a search or listing shows: a deny or ask rule of the
 * tool itself or of `read_file` that matches the file (as Claude Code applies Read rules to Grep
 * and Glob). A rule that matches the folder searched already stopped the call; this is for the
 * files inside it. `files` are as shown (workspace-relative); the result is the ones withheld.
 */
export async function withheldByRules(
  context: Partial<Pick<ToolExecutionContext, "judge">>,
  files: readonly string[],
): Promise<Set<string>> {
  const withheld = new Set<string>();
  if (!context.judge) return withheld;
  await Promise.all(
    files.map(async (file) => {
      for (const tool of [undefined, READ_RULES_OF]) {
        const decision = await context.judge?.({ path: file }, tool);
        if (decision && decision.verdict !== "allow" && decision.matched.kind === "rule") {
          withheld.add(file);
          return;
        }
      }
    }),
  );
  return withheld;
}

/** The note that says how many files rules kept out, or "" when none. */
export function withheldNote(count: number): string {
  return count === 0 ? "" : `[${plural(count, "file")} left out by permission rules]`;
}

/** Files judged at once: one pause of a walk, or one message to and from the grep worker. */
export const JUDGED_BATCH = 128;

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
