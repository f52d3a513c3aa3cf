import os from "node:os";
import { repositoryRoot } from "@pseudoclaude/compat-claude-code";
import type { GitState } from "./git-state.js";

/**
 * The facts of this session a coding agent needs and cannot ask a tool for cheaply: where it
 * works, on what system, which day it is, and the repository's branch and short status as they
 * were at start (the model reruns git for anything later).
 */
export function environmentText(workspace: string, git: GitState, now: Date): string {
  const lines = [
    `Working directory: ${workspace}`,
    git.kind === "repository"
      ? `Repository root: ${repositoryRoot(workspace)}`
      : "Not in a git repository.",
    `Platform: ${process.platform} (${os.type()} ${os.release()}, ${process.arch})`,
    `Today's date: ${localDate(now)}`,
  ];
  if (git.kind === "unavailable") lines.push(`Git state unknown: ${git.reason}.`);
  if (git.kind === "repository") {
    lines.push(`Git branch: ${git.branch}`);
    if (git.status.length === 0 && git.more === 0) lines.push("Git status: clean");
    else {
      lines.push("Git status at start (git status --short):", ...git.status.map((l) => `  ${l}`));
      if (git.more > 0) lines.push(`  … and ${git.more} more not shown`);
    }
  }
  return lines.join("\n");
}

/** `YYYY-MM-DD` in the user's time zone: the day it is for them. */
function localDate(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
