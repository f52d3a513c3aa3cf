import { execFile } from "node:child_process";

/** The repository's state as the model is told it: branch and a short status, bounded. */
export type GitState =
  | {
      kind: "repository";
      /**
       * As git says it: `main...origin/main [ahead 1]`, `HEAD (no branch)`, `No commits yet on
       * main`.
       */
      branch: string;
      /** `git status --short` lines, at most {@link MAX_STATUS_LINES}. */
      status: string[];
      /** Lines left out past the bound. */
      more: number;
    }
  | { kind: "none" }
  | { kind: "unavailable"; reason: string };

export const MAX_STATUS_LINES = 20;
/** A line longer than this (a path in a deep tree) is shortened. */
const MAX_LINE_CHARS = 200;
/** Start-up waits no longer than this for git, in a very large repository. */
const GIT_TIMEOUT_MS = 3_000;
/** Enough for the lines shown and a count of the rest in all but enormous worktrees. */
const MAX_OUTPUT_BYTES = 512 * 1024;

/**
 * `git status --branch --porcelain` in the workspace. Not a repository, git missing, or git
 * too slow: said as such, so the model is never told a state that was not read.
 */
export function readGitState(workspace: string): Promise<GitState> {
  return new Promise((resolve) => {
    execFile(
      "git",
      [
        // A repository's own config must not run a program of its choosing at start-up (an
        // fsmonitor hook would run on every status).
        "-c",
        "core.fsmonitor=false",
        "status",
        "--branch",
        "--porcelain=v1",
        "--untracked-files=normal",
      ],
      {
        cwd: workspace,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: MAX_OUTPUT_BYTES,
        // Only reads: it must not take the index lock another git in this repository needs.
        env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const output = String(stdout);
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "ENOENT") resolve({ kind: "unavailable", reason: "git is not installed" });
          else if (/not a git repository/i.test(String(stderr))) resolve({ kind: "none" });
          else if (code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER" && output)
            resolve(parseStatus(output, true));
          else if (error.killed)
            resolve({ kind: "unavailable", reason: `git status took over ${GIT_TIMEOUT_MS} ms` });
          else resolve({ kind: "unavailable", reason: firstLine(String(stderr)) || error.message });
          return;
        }
        resolve(parseStatus(output, false));
      },
    );
  });
}

/** The branch line and the entries, bounded. `cut`: the output stopped before its end. */
function parseStatus(output: string, cut: boolean): GitState {
  const lines = output.split("\n").filter((line) => line !== "");
  if (cut) lines.pop();
  const header = lines[0]?.startsWith("## ") ? (lines.shift() ?? "") : "";
  const entries = lines.map((line) =>
    line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line,
  );
  return {
    kind: "repository",
    branch: header.slice(3) || "unknown",
    status: entries.slice(0, MAX_STATUS_LINES),
    // Past the buffer's end the count is unknown: at least one more, said as "more".
    more: Math.max(0, entries.length - MAX_STATUS_LINES) + (cut ? 1 : 0),
  };
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}
