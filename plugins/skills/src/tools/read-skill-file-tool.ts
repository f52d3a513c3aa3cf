import { type FileHandle, realpath, stat } from "node:fs/promises";
import {
  defineTool,
  type Tool,
  type ToolResult,
  toolFailure,
  toolSuccess,
} from "@pseudoclaude/core";
import { createPathGuard, openConfined, PathSwappedError } from "@pseudoclaude/core/files";
import { errorMessage } from "@pseudoclaude/core/plugin";
import { z } from "zod";
import { READ_SKILL_FILE, SKILLS_SOURCE_ID } from "./skill-tool-names.js";

/**
 * Where a loaded skill's files are, or why none can be read. A catalog skill (an MCP server's)
 * has no folder: its layer reads a listed file from its origin and checks it first.
 */
export type SkillFolderLookup =
  | { dir: string }
  | { problem: string }
  | { remote: (path: string, signal: AbortSignal) => Promise<string> };

/** Bytes looked at to tell a binary file from text, as `git` does. */
const SNIFF_BYTES = 8_000;

/**
 * `read_skill_file { skill, path }`: one bundled file of a loaded skill. The path is confined
 * to that skill's folder by the kernel's path guard, exactly as the built-in tools confine the
 * workspace: resolved through every symbolic link, so neither `..` nor a link leads out.
 */
export function readSkillFileTool(
  folderOf: (skill: string) => SkillFolderLookup,
  maxBytes: number,
): Tool {
  return defineTool({
    name: READ_SKILL_FILE,
    description: `Read a file bundled with a loaded skill (a reference, a template, a script's source), by its path inside the skill's folder as load_skill listed it. Text only; files over ${maxBytes} bytes are cut with a note.`,
    input: z.strictObject({
      skill: z.string().min(1).describe("The loaded skill's name."),
      path: z.string().min(1).describe("Path inside the skill's folder, e.g. references/api.md."),
    }),
    safety: "read_only",
    source: SKILLS_SOURCE_ID,
    async execute(args, call) {
      const folder = folderOf(args.skill);
      if ("problem" in folder) return toolFailure("tool_error", folder.problem);
      if ("remote" in folder) return readRemote(args.skill, args.path, folder.remote, call.signal);
      const root = await realpath(folder.dir).catch(() => undefined);
      if (!root) return toolFailure("tool_error", `The folder of skill "${args.skill}" is gone.`);
      const guard = createPathGuard(root, [], `the folder of skill "${args.skill}"`);
      const checked = await guard.check(args.path);
      if (!checked.ok) return toolFailure("tool_error", checked.message);
      const shown = checked.path.display;
      if (!checked.path.exists)
        return toolFailure("tool_error", `${shown} does not exist in skill "${args.skill}".`);
      const info = await stat(checked.path.real);
      if (info.isDirectory())
        return toolFailure(
          "tool_error",
          `${shown} is a folder; load_skill lists the files it holds.`,
        );
      if (!info.isFile()) return toolFailure("tool_error", `${shown} is not a regular file.`);
      // Through a verified descriptor: a folder swapped for a link since the check is refused.
      let handle: FileHandle;
      try {
        handle = await openConfined(guard, checked.path.real, shown);
      } catch (error) {
        if (error instanceof PathSwappedError) return toolFailure("tool_error", error.message);
        throw error;
      }
      let bytes: Buffer;
      try {
        const length = Math.min(info.size, maxBytes);
        bytes = Buffer.alloc(length);
        const { bytesRead } = await handle.read(bytes, 0, length, 0);
        bytes = bytes.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
      const structured = {
        skill: args.skill,
        path: shown,
        size: info.size,
        truncated: info.size > bytes.length,
      };
      if (bytes.subarray(0, SNIFF_BYTES).includes(0)) {
        return toolFailure(
          "tool_error",
          `${shown} is a binary file (${info.size} bytes); read_skill_file shows text files only.`,
          { structured: { ...structured, binary: true } },
        );
      }
      let text = bytes.toString("utf8");
      if (structured.truncated)
        text += `\n[... ${info.size - bytes.length} more bytes not shown: the file has ${info.size} bytes and ${READ_SKILL_FILE} returns at most ${maxBytes}]`;
      return toolSuccess(text === "" ? `${shown} is empty.` : text, { structured });
    },
  });

  /** A catalog skill's file: verified by its layer, then shown as a folder's file would be. */
  async function readRemote(
    skill: string,
    path: string,
    read: (path: string, signal: AbortSignal) => Promise<string>,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    let whole: string;
    try {
      whole = await read(path.replace(/^\.\//, ""), signal);
    } catch (error) {
      return toolFailure("tool_error", errorMessage(error));
    }
    const size = Buffer.byteLength(whole);
    const structured = { skill, path, size, truncated: size > maxBytes };
    if (whole.slice(0, SNIFF_BYTES).includes("\u0000"))
      return toolFailure(
        "tool_error",
        `${path} is a binary file (${size} bytes); read_skill_file shows text files only.`,
        { structured: { ...structured, binary: true } },
      );
    let text = structured.truncated
      ? Buffer.from(whole).subarray(0, maxBytes).toString("utf8")
      : whole;
    if (structured.truncated)
      text += `\n[... ${size - maxBytes} more bytes not shown: the file has ${size} bytes and ${READ_SKILL_FILE} returns at most ${maxBytes}]`;
    return toolSuccess(text === "" ? `${path} is empty.` : text, { structured });
  }
}
