import type { ToolExecutionContext } from "@pseudoclaude/core/plugin";
import { plural } from "../text/bounded-text.js";

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
