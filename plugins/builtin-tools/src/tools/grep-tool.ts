import { defineTool, type Tool, toolFailure, toolSuccess } from "@pseudoclaude/core";
import { z } from "zod";
import type { GrepOutcome, GrepRequest } from "../grep/grep-request.js";
import { runGrep } from "../grep/run-grep.js";
import { plural } from "../text/bounded-text.js";
import { BUILTIN_TOOL_ALIASES } from "./builtin-tool-names.js";
import { confineExisting } from "./confined-files.js";
import { BUILTIN_SOURCE_ID, isToolResult, type ToolKit } from "./tool-kit.js";
import { withheldByRules } from "./withheld-files.js";

export const GREP_DEFAULT_RESULTS = 100;
export const GREP_MAX_RESULTS = 2_000;
export const GREP_MAX_CONTEXT = 20;

const input = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .superRefine((value, check) => {
      try {
        new RegExp(value);
      } catch (error) {
        check.addIssue({
          code: "custom",
          message: `not a valid regular expression: ${(error as Error).message}`,
        });
      }
    })
    .describe("Regular expression (JavaScript syntax), e.g. `function\\s+load`, `TODO|FIXME`."),
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      "File or directory to search: relative to the workspace, or absolute inside it. Default: the workspace.",
    ),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Only search files matching this glob: without `/` it matches the file name at any depth (`*.ts`), with `/` the path below `path` (`src/**/*.ts`).",
    ),
  case_insensitive: z.boolean().optional().describe("Ignore case. Default false."),
  context: z
    .number()
    .int()
    .min(0)
    .max(GREP_MAX_CONTEXT)
    .optional()
    .describe("Lines of context shown before and after each match. Default 0."),
  output_mode: z
    .enum(["content", "files_with_matches", "count"])
    .optional()
    .describe(
      "`content` (matching lines, default), `files_with_matches` (paths only) or `count` (matches per file).",
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(GREP_MAX_RESULTS)
    .optional()
    .describe(
      `Most matching lines (content) or files (other modes). Default ${GREP_DEFAULT_RESULTS}.`,
    ),
  include_ignored: z
    .boolean()
    .optional()
    .describe("Also search files that .gitignore excludes. Default false."),
});

/** `grep`: a regular-expression search over files, bounded and honouring `.gitignore`. */
export function grepTool(kit: ToolKit): Tool {
  return defineTool({
    name: "grep",
    aliases: BUILTIN_TOOL_ALIASES.grep,
    description: `Search file contents with a regular expression. Output is ripgrep-style: \`path:line:text\` for matches, \`path-line-text\` for context lines, \`--\` between groups. Skips binary files, files that .gitignore excludes and the .git folder. Returns at most ${GREP_DEFAULT_RESULTS} matches unless \`limit\` says otherwise; long lines are shown around the match.`,
    input,
    safety: "read_only",
    source: BUILTIN_SOURCE_ID,
    permissionKey: { argument: "path", match: "path" },
    async execute(args, context) {
      const checked = await confineExisting(kit, args.path ?? ".");
      if (isToolResult(checked)) return checked;
      const { path: target, info } = checked;
      if (!info.isDirectory() && !info.isFile()) {
        return toolFailure("tool_error", `${target.display} is not a regular file or a directory.`);
      }
      const request: GrepRequest = {
        workspace: kit.guard.workspace,
        extraRoots: [...kit.guard.extraRoots],
        pattern: args.pattern,
        caseInsensitive: args.case_insensitive ?? false,
        target: target.real,
        targetIsFile: !info.isDirectory(),
        root: kit.guard.rootOf(target.real) ?? target.real,
        contextLines: args.context ?? 0,
        mode: args.output_mode ?? "content",
        limit: args.limit ?? GREP_DEFAULT_RESULTS,
        respectGitignore: !args.include_ignored,
        maxOutputChars: kit.settings.maxOutputChars,
        judgeFiles: context.judge !== undefined,
      };
      if (args.glob) request.glob = args.glob;
      const outcome = await runGrep(request, context.signal, (files) =>
        withheldByRules(context, files),
      );
      const structured = {
        matches: outcome.matches,
        files_with_matches: outcome.filesWithMatches,
        files_searched: outcome.filesSearched,
        binary_files_skipped: outcome.binarySkipped,
        unreadable_files: outcome.unreadable,
        ...(outcome.withheld > 0 ? { withheld_files: outcome.withheld } : {}),
        truncated: outcome.limitReached || outcome.outputCapped,
      };
      return toolSuccess(render(outcome, request, target.display), { structured });
    },
  });
}

function render(outcome: GrepOutcome, request: GrepRequest, shown: string): string {
  const skipped = [
    outcome.binarySkipped > 0 ? `${plural(outcome.binarySkipped, "binary file")} skipped` : "",
    outcome.unreadable > 0 ? `${plural(outcome.unreadable, "unreadable file")} skipped` : "",
    outcome.withheld > 0 ? `${plural(outcome.withheld, "file")} left out by permission rules` : "",
  ].filter(Boolean);
  const searched = `${plural(outcome.filesSearched, "file")} searched${skipped.length > 0 ? `, ${skipped.join(", ")}` : ""}`;
  if (outcome.matches === 0) {
    return `No matches for /${request.pattern}/ in ${shown} (${searched}).`;
  }
  const summary = [
    `${plural(outcome.matches, "match", "matches")} in ${plural(outcome.filesWithMatches, "file")}`,
    searched,
  ];
  if (outcome.limitReached) {
    summary.push(`stopped at the limit of ${request.limit}; narrow the search or raise limit`);
  }
  if (outcome.outputCapped) {
    summary.push(
      `stopped at the output cap of ${request.maxOutputChars} characters; narrow the search`,
    );
  }
  return `${outcome.lines.join("\n")}\n[${summary.join("; ")}]`;
}
