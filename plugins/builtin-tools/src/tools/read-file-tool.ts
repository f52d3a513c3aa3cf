import { defineTool, type Tool, toolFailure, toolSuccess } from "@pseudoclaude/core";
import { z } from "zod";
import { BinaryFileError } from "../files/binary-file.js";
import { formatBytes } from "../text/bounded-text.js";
import { readLines } from "../text/line-reader.js";
import { numberedLine } from "../text/numbered-line.js";
import { BUILTIN_TOOL_ALIASES } from "./builtin-tool-names.js";
import { confineExisting, openChecked } from "./confined-files.js";
import { BUILTIN_SOURCE_ID, isToolResult, type ToolKit } from "./tool-kit.js";

/** Lines shown when the call does not say, and the most one call may ask for. */
export const READ_DEFAULT_LINES = 2_000;
export const READ_MAX_LINES = 10_000;
/** A longer line is cut in the output (the rest is never read into memory). */
export const READ_LINE_CHARS = 2_000;

const input = z.strictObject({
  path: z
    .string()
    .min(1)
    .describe("File to read: relative to the workspace, or absolute inside it."),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("1-based number of the first line to show. Default 1."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_MAX_LINES)
    .optional()
    .describe(`Most lines to show. Default ${READ_DEFAULT_LINES}.`),
});

/** `read_file`: a page of a text file with line numbers. */
export function readFileTool(kit: ToolKit): Tool {
  return defineTool({
    name: "read_file",
    aliases: BUILTIN_TOOL_ALIASES.read_file,
    description: `Read a text file in the workspace. Lines are numbered like \`cat -n\` (number, tab, text). Shows up to ${READ_DEFAULT_LINES} lines from \`offset\`; when more follow, the output says which offset to read next. Lines longer than ${READ_LINE_CHARS} characters are cut. Binary files are refused.`,
    input,
    safety: "read_only",
    source: BUILTIN_SOURCE_ID,
    permissionKey: { argument: "path", match: "path" },
    async execute(args, context) {
      const checked = await confineExisting(kit, args.path);
      if (isToolResult(checked)) return checked;
      const { path: target, info } = checked;
      const shown = target.display;
      if (info.isDirectory()) {
        return toolFailure(
          "tool_error",
          `${shown} is a directory; use list_dir to see what it holds.`,
        );
      }
      // A FIFO or device would block (or never end) instead of being read.
      if (!info.isFile()) return toolFailure("tool_error", `${shown} is not a regular file.`);
      const offset = args.offset ?? 1;
      const limit = args.limit ?? READ_DEFAULT_LINES;
      const budget = kit.settings.maxOutputChars;
      const shownLines: string[] = [];
      let chars = 0;
      let last = 0;
      let more = false;
      let capped = false;
      const handle = await openChecked(kit, target);
      if (isToolResult(handle)) return handle;
      try {
        for await (const line of readLines(handle, {
          maxLineChars: READ_LINE_CHARS,
          rejectBinary: true,
          signal: context.signal,
        })) {
          last = line.number;
          if (line.number < offset) continue;
          if (shownLines.length >= limit) {
            more = true;
            break;
          }
          const text = numberedLine(
            line.number,
            line.cut ? `${line.text}… [line cut: ${line.bytes} bytes]` : line.text,
          );
          if (chars + text.length + 1 > budget && shownLines.length > 0) {
            more = true;
            capped = true;
            last = line.number - 1;
            break;
          }
          shownLines.push(text);
          chars += text.length + 1;
        }
      } catch (error) {
        if (error instanceof BinaryFileError) {
          return toolFailure(
            "tool_error",
            `${shown} is a binary file (${formatBytes(info.size)}); read_file shows text files only.`,
            { metadata: { path: shown, binary: true } },
          );
        }
        throw error;
      }
      const structured = {
        path: shown,
        start_line: shownLines.length > 0 ? offset : null,
        end_line: shownLines.length > 0 ? offset + shownLines.length - 1 : null,
        more,
        ...(more ? { next_offset: offset + shownLines.length } : {}),
      };
      if (shownLines.length === 0) {
        const note =
          last === 0
            ? `${shown} is empty.`
            : `${shown} has ${last} lines; offset ${offset} is past the end.`;
        return toolSuccess(note, { structured });
      }
      let text = shownLines.join("\n");
      if (more) {
        const end = offset + shownLines.length - 1;
        const why = capped
          ? `the output cap of ${budget} characters`
          : `the limit of ${limit} lines`;
        text += `\n[lines ${offset}-${end} shown (${why}); more follow: read again with offset ${end + 1}]`;
      }
      return toolSuccess(text, { structured });
    },
  });
}
