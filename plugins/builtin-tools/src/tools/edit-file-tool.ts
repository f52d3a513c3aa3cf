import { stat } from "node:fs/promises";
import { defineTool, type Tool, toolFailure, toolSuccess } from "@pseudoclaude/core";
import { openConfined } from "@pseudoclaude/core/files";
import { z } from "zod";
import { writeFileAtomic } from "../files/atomic-write.js";
import { looksBinary } from "../files/binary-file.js";
import { clipLine, formatBytes, plural } from "../text/bounded-text.js";
import { numberedLine } from "../text/numbered-line.js";
import { BUILTIN_TOOL_ALIASES } from "./builtin-tool-names.js";
import { confine, couldNotWrite, refusedOpen } from "./confined-files.js";
import { BUILTIN_SOURCE_ID, isToolResult, type ToolKit } from "./tool-kit.js";

/** Files larger than this are not edited in memory. */
export const EDIT_MAX_BYTES = 10 * 1024 * 1024;
/** Lines of the edited region shown back, and how many occurrences a failure lists. */
const SNIPPET_LINES = 20;
const LISTED_OCCURRENCES = 10;

const input = z
  .strictObject({
    path: z
      .string()
      .min(1)
      .describe("File to edit: relative to the workspace, or absolute inside it."),
    old_string: z
      .string()
      .min(1)
      .describe(
        "Exact text to replace, including whitespace and indentation. Must occur exactly once unless replace_all is true.",
      ),
    new_string: z.string().describe("Text to put in its place."),
    replace_all: z
      .boolean()
      .optional()
      .describe("Replace every occurrence instead of requiring exactly one. Default false."),
  })
  .refine((args) => args.old_string !== args.new_string, {
    message: "new_string must differ from old_string",
    path: ["new_string"],
  });

/** `edit_file`: exact string replacement that must match once (or every time, if asked). */
export function editFileTool(kit: ToolKit): Tool {
  return defineTool({
    name: "edit_file",
    aliases: BUILTIN_TOOL_ALIASES.edit_file,
    description:
      "Replace exact text in a file. `old_string` must match the file exactly (whitespace included) and exactly once, so include enough surrounding lines to make it unique; or set replace_all to replace every occurrence. Fails, saying why, when the text is missing or not unique. The write is atomic.",
    input,
    safety: "side_effect",
    source: BUILTIN_SOURCE_ID,
    category: "edit",
    permissionKey: { argument: "path", match: "path" },
    async execute(args) {
      const target = await confine(kit, args.path);
      if (isToolResult(target)) return target;
      const shown = target.display;
      if (!target.exists) {
        return toolFailure("tool_error", `${shown} does not exist; use write_file to create it.`);
      }
      let original: string;
      try {
        const info = await stat(target.real);
        if (info.isDirectory()) return toolFailure("tool_error", `${shown} is a directory.`);
        if (!info.isFile()) return toolFailure("tool_error", `${shown} is not a regular file.`);
        if (info.size > EDIT_MAX_BYTES) {
          return toolFailure(
            "tool_error",
            `${shown} is ${formatBytes(info.size)}; edit_file edits files up to ${formatBytes(EDIT_MAX_BYTES)}.`,
          );
        }
        const handle = await openConfined(kit.guard, target.real, shown);
        const bytes = await handle.readFile().finally(() => handle.close());
        if (looksBinary(bytes.subarray(0, 8192))) {
          return toolFailure(
            "tool_error",
            `${shown} is a binary file; edit_file edits text files only.`,
          );
        }
        original = bytes.toString("utf8");
      } catch (error) {
        return refusedOpen(error, shown);
      }
      const { oldText, newText, positions } = locate(original, args.old_string, args.new_string);
      if (positions.length === 0) {
        return toolFailure(
          "tool_error",
          `old_string was not found in ${shown}. It must match the file exactly, including whitespace and indentation; read the file again and copy the text.`,
        );
      }
      if (positions.length > 1 && !args.replace_all) {
        const lines = [...new Set(positions.map((at) => lineAt(original, at)))];
        const listed = lines.slice(0, LISTED_OCCURRENCES);
        const more = lines.length > LISTED_OCCURRENCES ? ", …" : "";
        return toolFailure(
          "tool_error",
          `old_string occurs ${positions.length} times in ${shown} (${lines.length === 1 ? "line" : "lines"} ${listed.join(", ")}${more}); include more surrounding text to make it unique, or set replace_all to true.`,
          { metadata: { occurrences: positions.length } },
        );
      }
      const updated = replaceAt(original, positions, oldText, newText);
      try {
        await writeFileAtomic(target.real, updated, { guard: kit.guard, shown });
      } catch (error) {
        return couldNotWrite(error, shown);
      }
      const firstLine = lineAt(original, positions[0]!);
      const text = [
        `Edited ${shown}: replaced ${plural(positions.length, "occurrence")}.`,
        snippet(updated, firstLine, newText),
      ].join("\n");
      return toolSuccess(text, {
        structured: { path: shown, replacements: positions.length, first_line: firstLine },
      });
    },
  });
}

/**
 * Where `oldText` occurs (non-overlapping). A model usually writes `\n`; when the file uses
 * `\r\n` and only the converted text matches, both strings are converted.
 */
function locate(content: string, oldText: string, newText: string) {
  const positions = occurrences(content, oldText);
  if (positions.length > 0 || !content.includes("\r\n") || oldText.includes("\r")) {
    return { oldText, newText, positions };
  }
  const crlf = (text: string) => text.replace(/\r?\n/g, "\r\n");
  return {
    oldText: crlf(oldText),
    newText: crlf(newText),
    positions: occurrences(content, crlf(oldText)),
  };
}

function occurrences(content: string, text: string): number[] {
  const positions: number[] = [];
  for (let at = content.indexOf(text); at !== -1; at = content.indexOf(text, at + text.length)) {
    positions.push(at);
  }
  return positions;
}

/** Splice by position: `String.replace` would read `$&` and friends in new_string. */
function replaceAt(content: string, positions: number[], oldText: string, newText: string): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const at of positions) {
    parts.push(content.slice(cursor, at), newText);
    cursor = at + oldText.length;
  }
  parts.push(content.slice(cursor));
  return parts.join("");
}

function lineAt(content: string, index: number): number {
  let line = 1;
  for (
    let at = content.indexOf("\n");
    at !== -1 && at < index;
    at = content.indexOf("\n", at + 1)
  ) {
    line += 1;
  }
  return line;
}

/** The first replaced region with a little context, numbered like read_file. */
function snippet(content: string, firstLine: number, newText: string): string {
  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop();
  const span = Math.max(1, newText.split("\n").length);
  const from = Math.max(1, firstLine - 2);
  const to = Math.min(lines.length, firstLine + span + 1, from + SNIPPET_LINES - 1);
  const shown: string[] = [];
  for (let number = from; number <= to; number++) {
    shown.push(numberedLine(number, clipLine((lines[number - 1] ?? "").replace(/\r$/, ""), 400)));
  }
  return `Lines ${from}-${to} now read:\n${shown.join("\n")}`;
}
