import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { consentWorkspaceKey } from "@pseudoclaude/core/consent";
import { CONFIG_DIR } from "@pseudoclaude/core/plugin";

/** How often one hook failed in this workspace, and the last reason. */
export interface HookFailureCount {
  count: number;
  last: string;
  /** ISO time of the last failure. */
  at: string;
}

/** The hooks a failure is counted for: a changed command (or file) starts a new count. */
export function hookFailureKey(hook: { event: string; file: string; command: string }): string {
  return createHash("sha256")
    .update(`${hook.event}\n${hook.file}\n${hook.command}`)
    .digest("hex")
    .slice(0, 16);
}

/**
 * Failures of hooks, counted per workspace in the user's own directory
 * (`~/.PseudoClaude/hook-failures/<workspace>.json`, never the workspace), so that
 * `pseudoclaude hooks` can show a hook that fails on every call even when the failure did not
 * stop anything (a non-blocking error of a hook written for Claude Code).
 */
export class HookFailureLog {
  constructor(readonly file: string) {}

  /** The counts so far; a missing or unreadable file is no failures. */
  read(): Record<string, HookFailureCount> {
    try {
      const parsed = JSON.parse(readFileSync(this.file, "utf8")) as unknown;
      return parsed && typeof parsed === "object" && !Array.isArray(parsed)
        ? (parsed as Record<string, HookFailureCount>)
        : {};
    } catch {
      return {};
    }
  }

  /** Count one failure. Writing is best effort: a full disk must not stop the agent. */
  record(key: string, why: string): void {
    const counts = this.read();
    const before = counts[key];
    counts[key] = {
      count: (before?.count ?? 0) + 1,
      last: why.slice(0, 500),
      at: new Date().toISOString(),
    };
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(counts, null, 2)}\n`, { mode: 0o600 });
      renameSync(temporary, this.file);
    } catch {
      // Counting is a convenience; the failure itself was already reported.
    }
  }
}

/** The failure log of `workspace`, in the user's directory. */
export function hookFailureLog(workspace: string, homeDir: string = os.homedir()): HookFailureLog {
  const key = consentWorkspaceKey(workspace);
  const hash = createHash("sha256").update(key).digest("hex").slice(0, 12);
  const name =
    path
      .basename(key)
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .slice(0, 40) || "root";
  return new HookFailureLog(
    path.join(homeDir, CONFIG_DIR, "hook-failures", `${name}-${hash}.json`),
  );
}
