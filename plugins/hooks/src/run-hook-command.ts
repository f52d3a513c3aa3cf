import type { ProcessRunner } from "@pseudoclaude/core/process";
import type { HookCommand } from "./hooks-settings.js";

/** Each stream of a hook is capped at this many characters. */
const MAX_OUTPUT_CHARS = 64_000;

/** What a hook command said, read the way Claude Code reads it. */
export type HookAnswer =
  /** Exit 0: go on; `json` when stdout was a JSON object, `stdout` otherwise. */
  | { kind: "ok"; json?: Record<string, unknown>; stdout: string }
  /** Exit 2: block, with stderr as the reason. */
  | { kind: "block"; reason: string }
  /**
   * It crashed, timed out or exited otherwise: `why` says which; the exit code (or signal) and
   * the first line of stderr, when there were any.
   */
  | { kind: "failed"; why: string; exit?: number | string; stderr?: string };

/**
 * Run one hook command as Claude Code does: `sh -c COMMAND` in the workspace, the event's JSON
 * on stdin, `CLAUDE_PROJECT_DIR` set. In a process group of its own, with its timeout and
 * bounded output; nothing it starts outlives it.
 */
export async function runHookCommand(
  runner: ProcessRunner,
  hook: HookCommand,
  input: Record<string, unknown>,
  /** Where it runs, and the config's `env` (variables for every process a tool starts). */
  place: { workspace: string; env: Readonly<Record<string, string>> },
  signal: AbortSignal,
): Promise<HookAnswer> {
  const { workspace } = place;
  const outcome = await runner.run({
    file: "/bin/sh",
    args: ["-c", hook.command],
    cwd: workspace,
    env: { ...place.env, CLAUDE_PROJECT_DIR: workspace, PSEUDOCLAUDE_PROJECT_DIR: workspace },
    stdin: JSON.stringify(input),
    maxOutputChars: MAX_OUTPUT_CHARS,
    killGraceMs: 1_000,
    signal,
    deadlineMs: hook.timeoutMs,
    separateStreams: true,
  });
  const stdout = (outcome.stdout ?? "").trim();
  const stderr = (outcome.stderr ?? "").trim();
  if (outcome.spawnError)
    return { kind: "failed", why: `it could not start (${outcome.spawnError})` };
  if (outcome.stopped === "deadline" || outcome.stopped === "timeout")
    return { kind: "failed", why: `it did not finish within ${hook.timeoutMs / 1000} s` };
  if (outcome.stopped) return { kind: "failed", why: `it was stopped (${outcome.stopped})` };
  if (outcome.exitCode === 2)
    return { kind: "block", reason: stderr || "blocked by a hook (exit 2)" };
  if (outcome.exitCode !== 0) {
    const exit = outcome.exitCode ?? outcome.signal ?? "unknown";
    const firstLine = stderr.split("\n", 1)[0]?.slice(0, 500) ?? "";
    return {
      kind: "failed",
      why: `it exited with ${exit}${stderr ? `: ${stderr.slice(0, 500)}` : ""}`,
      exit,
      ...(firstLine ? { stderr: firstLine } : {}),
    };
  }
  if (stdout.startsWith("{")) {
    try {
      const json = JSON.parse(stdout) as unknown;
      if (json && typeof json === "object" && !Array.isArray(json))
        return { kind: "ok", json: json as Record<string, unknown>, stdout };
    } catch {
      // Not JSON after all: plain output.
    }
  }
  return { kind: "ok", stdout };
}
