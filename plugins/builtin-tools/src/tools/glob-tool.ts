import path from "node:path";
import { defineTool, type Tool, toolFailure, toolSuccess } from "@pseudoclaude/core";
import picomatch from "picomatch";
import { z } from "zod";
import { clipText, plural } from "../text/bounded-text.js";
import { walkTree } from "../walk/walk-tree.js";
import { BUILTIN_TOOL_ALIASES } from "./builtin-tool-names.js";
import { confine, confineExisting } from "./confined-files.js";
import { BUILTIN_SOURCE_ID, isToolResult, type ToolKit } from "./tool-kit.js";
import { JUDGED_BATCH, withheldByRules, withheldNote } from "./withheld-files.js";

export const GLOB_DEFAULT_RESULTS = 200;
export const GLOB_MAX_RESULTS = 2_000;

const input = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .refine((value) => !path.isAbsolute(value) && !value.split("/").includes(".."), {
      message:
        "must be relative to `path` and must not contain `..`; set `path` to search elsewhere",
    })
    .describe(
      "Glob relative to `path`, e.g. `**/*.ts`, `src/**/*.{ts,tsx}`, `*.md` (top level only).",
    ),
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Directory to search from: relative to the workspace, or absolute inside it. Default: the workspace.",
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(GLOB_MAX_RESULTS)
    .optional()
    .describe(`Most paths to return. Default ${GLOB_DEFAULT_RESULTS}.`),
  include_ignored: z
    .boolean()
    .optional()
    .describe("Also match files that .gitignore excludes. Default false."),
});

/** `glob`: files whose path matches a pattern, honouring `.gitignore`. */
export function globTool(kit: ToolKit): Tool {
  return defineTool({
    name: "glob",
    aliases: BUILTIN_TOOL_ALIASES.glob,
    description: `Find files by glob pattern (\`*\`, \`**\`, \`?\`, \`[...]\`, \`{a,b}\`), relative to \`path\`. Files that .gitignore excludes and the .git folder are skipped; hidden files are included. Returns workspace-relative paths in name order, at most ${GLOB_DEFAULT_RESULTS} unless \`limit\` says otherwise.`,
    input,
    safety: "read_only",
    source: BUILTIN_SOURCE_ID,
    permissionKey: { argument: "path", match: "path" },
    async execute(args, context) {
      const checked = await confineExisting(kit, args.path ?? ".");
      if (isToolResult(checked)) return checked;
      const { path: base, info } = checked;
      if (!info.isDirectory()) {
        return toolFailure(
          "tool_error",
          `${base.display} is not a directory; \`path\` must be one.`,
        );
      }
      const pattern = args.pattern.replace(/^(\.\/)+/, "");
      const scan = picomatch.scan(pattern);
      // Only the pattern's fixed leading folders need walking (`src/**/*.ts` walks `src`).
      const start = await confine(kit, path.join(base.real, scan.base));
      if (isToolResult(start)) return start;
      const limit = args.limit ?? GLOB_DEFAULT_RESULTS;
      const found: string[] = [];
      let limitReached = false;
      let withheld = 0;
      // Matches are judged by the path rules in batches, so the limit counts only files shown.
      let pending: string[] = [];
      const flush = async () => {
        const out = await withheldByRules(context, pending);
        for (const file of pending) {
          if (out.has(file)) withheld += 1;
          else if (found.length < limit) found.push(file);
          else limitReached = true;
        }
        pending = [];
      };
      if (!scan.isGlob) {
        if (start.exists) pending.push(join(base.display, pattern));
      } else if (start.exists) {
        const matches = picomatch(pattern, { dot: true });
        const walk = walkTree({
          start: start.real,
          root: kit.guard.rootOf(start.real) ?? start.real,
          respectGitignore: !args.include_ignored,
          signal: context.signal,
          guard: kit.guard,
        });
        for await (const entry of walk) {
          if (entry.kind === "other") continue;
          const relative = scan.base ? `${scan.base}/${entry.relative}` : entry.relative;
          if (!matches(relative)) continue;
          pending.push(join(base.display, relative));
          if (pending.length >= JUDGED_BATCH) await flush();
          if (limitReached) break;
        }
      }
      await flush();
      const note = withheldNote(withheld);
      if (found.length === 0) {
        return toolSuccess(
          `No files match ${pattern} in ${base.display}.${note ? `\n${note}` : ""}`,
          { structured: { files: [], truncated: false, ...(withheld ? { withheld } : {}) } },
        );
      }
      let text = found.join("\n");
      if (limitReached)
        text += `\n[first ${plural(limit, "match", "matches")} shown; narrow the pattern or raise limit]`;
      if (note) text += `\n${note}`;
      const clipped = clipText(text, kit.settings.maxOutputChars, "narrow the pattern");
      return toolSuccess(clipped.text, {
        structured: {
          files: found,
          truncated: limitReached || clipped.truncated,
          ...(withheld ? { withheld } : {}),
        },
      });
    },
  });
}

function join(base: string, relative: string): string {
  return base === "." ? relative : `${base}/${relative}`;
}
