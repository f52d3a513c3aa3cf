import type { Dirent } from "node:fs";
import { lstat, readdir, readlink } from "node:fs/promises";
import path from "node:path";
import { defineTool, type Tool, toolFailure, toolSuccess } from "@pseudoclaude/core";
import { openConfinedFolder } from "@pseudoclaude/core/files";
import { z } from "zod";
import { clipText, formatBytes, plural } from "../text/bounded-text.js";
import { BUILTIN_TOOL_ALIASES } from "./builtin-tool-names.js";
import { confine, refusedOpen } from "./confined-files.js";
import { BUILTIN_SOURCE_ID, isToolResult, type ToolKit } from "./tool-kit.js";

export const LIST_DEFAULT_ENTRIES = 500;
export const LIST_MAX_ENTRIES = 2_000;

const input = z.strictObject({
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Directory to list: relative to the workspace, or absolute inside it. Default: the workspace.",
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(LIST_MAX_ENTRIES)
    .optional()
    .describe(`Most entries to show. Default ${LIST_DEFAULT_ENTRIES}.`),
});

interface ListedEntry {
  name: string;
  type: "directory" | "file" | "symlink" | "other";
  size?: number;
  target?: string;
}

/** `list_dir`: the entries of one directory, directories first. */
export function listDirTool(kit: ToolKit): Tool {
  return defineTool({
    name: "list_dir",
    aliases: BUILTIN_TOOL_ALIASES.list_dir,
    description:
      "List one directory of the workspace (not recursive): sub-directories first (with a trailing /), then files with their sizes; symbolic links show their target. Use glob to find files by pattern.",
    input,
    safety: "read_only",
    source: BUILTIN_SOURCE_ID,
    permissionKey: { argument: "path", match: "path" },
    async execute(args) {
      const target = await confine(kit, args.path ?? ".");
      if (isToolResult(target)) return target;
      const shown = target.display;
      let dirents: Dirent[];
      let entries: ListedEntry[];
      const limit = args.limit ?? LIST_DEFAULT_ENTRIES;
      try {
        // Listed through a verified descriptor: a folder swapped for a link since the check
        // is refused, not listed.
        const folder = await openConfinedFolder(kit.guard, target.real, shown);
        try {
          dirents = (await readdir(folder.entry(""), { withFileTypes: true })).sort(byKindThenName);
          entries = await Promise.all(
            dirents.slice(0, limit).map((dirent) => describe(folder.entry(""), dirent)),
          );
        } finally {
          await folder.close();
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOTDIR")
          return toolFailure(
            "tool_error",
            `${shown} is a file, not a directory; use read_file to read it.`,
          );
        return refusedOpen(error, shown);
      }
      const directories = dirents.filter((dirent) => dirent.isDirectory()).length;
      const header = `${shown}: ${plural(dirents.length, "entry", "entries")} (${plural(directories, "directory", "directories")}, ${dirents.length - directories} other)`;
      const lines = entries.map(render);
      if (dirents.length > limit) {
        lines.push(`[${dirents.length - limit} more entries not shown (limit ${limit})]`);
      }
      const clipped = clipText([header, ...lines].join("\n"), kit.settings.maxOutputChars);
      return toolSuccess(clipped.text, {
        structured: {
          path: shown,
          total: dirents.length,
          entries,
          truncated: dirents.length > limit || clipped.truncated,
        },
      });
    },
  });
}

function byKindThenName(a: Dirent, b: Dirent): number {
  const kind = Number(b.isDirectory()) - Number(a.isDirectory());
  if (kind !== 0) return kind;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

async function describe(directory: string, dirent: Dirent): Promise<ListedEntry> {
  const absolute = path.join(directory, dirent.name);
  if (dirent.isDirectory()) return { name: dirent.name, type: "directory" };
  if (dirent.isSymbolicLink()) {
    const target = await readlink(absolute).catch(() => "?");
    return { name: dirent.name, type: "symlink", target };
  }
  if (!dirent.isFile()) return { name: dirent.name, type: "other" };
  const info = await lstat(absolute).catch(() => undefined);
  return info
    ? { name: dirent.name, type: "file", size: info.size }
    : { name: dirent.name, type: "file" };
}

function render(entry: ListedEntry): string {
  switch (entry.type) {
    case "directory":
      return `${entry.name}/`;
    case "symlink":
      return `${entry.name} -> ${entry.target}`;
    case "file":
      return entry.size === undefined ? entry.name : `${entry.name}  (${formatBytes(entry.size)})`;
    default:
      return `${entry.name}  (special file)`;
  }
}
