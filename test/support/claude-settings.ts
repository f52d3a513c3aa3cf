// Where the tests put Claude Code's settings files: the user's in the fake home, the workspace's
// shared and local files, and managed settings in the fake home (where test/support/cli.ts points
// PSEUDOCLAUDE_CLAUDE_MANAGED_SETTINGS), never the machine's own /etc/claude-code.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TempWorkspace } from "@pseudoclaude/testing";

export type ClaudeSettingsScope = "user" | "project" | "local" | "managed";

/** The managed settings file of a test's fake home. */
export function managedSettingsFile(home: string): string {
  return path.join(home, "managed-settings.json");
}

/** The settings file of `scope` for this workspace. */
export function claudeSettingsFile(workspace: TempWorkspace, scope: ClaudeSettingsScope): string {
  if (scope === "user") return path.join(workspace.home, ".claude", "settings.json");
  if (scope === "managed") return managedSettingsFile(workspace.home);
  return path.join(
    workspace.root,
    ".claude",
    scope === "local" ? "settings.local.json" : "settings.json",
  );
}

/** Write a settings file of `scope`: a value as JSON, or text as it is (a broken file too). */
export async function writeClaudeSettings(
  workspace: TempWorkspace,
  scope: ClaudeSettingsScope,
  value: unknown,
): Promise<string> {
  const file = claudeSettingsFile(workspace, scope);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`);
  return file;
}
