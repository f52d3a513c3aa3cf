import { stat } from "node:fs/promises";
import { defineTool, type Tool, toolFailure, toolSuccess } from "@pseudoclaude/core";
import { z } from "zod";
import { writeFileAtomic } from "../files/atomic-write.js";
import { formatBytes, plural } from "../text/bounded-text.js";
import { BUILTIN_TOOL_ALIASES } from "./builtin-tool-names.js";
import { confine, couldNotWrite } from "./confined-files.js";
import { BUILTIN_SOURCE_ID, isToolResult, type ToolKit } from "./tool-kit.js";

const input = z.strictObject({
  path: z
    .string()
    .min(1)
    .describe("File to write: relative to the workspace, or absolute inside it."),
  content: z.string().describe("The whole new content of the file."),
});

/** `write_file`: create or replace a whole file, atomically. */
export function writeFileTool(kit: ToolKit): Tool {
  return defineTool({
    name: "write_file",
    aliases: BUILTIN_TOOL_ALIASES.write_file,
    description:
      "Create a file, or replace the whole content of an existing one, in the workspace. Missing parent folders are created. The write is atomic: the file holds either the old or the new content, never a mix. Prefer edit_file to change part of a file.",
    input,
    safety: "side_effect",
    source: BUILTIN_SOURCE_ID,
    category: "edit",
    permissionKey: { argument: "path", match: "path" },
    async execute(args) {
      const target = await confine(kit, args.path);
      if (isToolResult(target)) return target;
      const shown = target.display;
      try {
        if (target.exists && (await stat(target.real)).isDirectory()) {
          return toolFailure("tool_error", `${shown} is a directory; write_file writes files.`);
        }
        await writeFileAtomic(target.real, args.content, {
          guard: kit.guard,
          makeFolders: true,
          shown,
        });
      } catch (error) {
        return couldNotWrite(error, shown);
      }
      const bytes = Buffer.byteLength(args.content);
      const lines = countLines(args.content);
      return toolSuccess(
        `${target.exists ? "Replaced" : "Created"} ${shown} (${plural(lines, "line")}, ${formatBytes(bytes)}).`,
        { structured: { path: shown, created: !target.exists, bytes, lines } },
      );
    },
  });
}

/** Lines as an editor counts them: a trailing newline does not start another line. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 1;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    count += 1;
  }
  return text.endsWith("\n") ? count - 1 : count;
}
