import os from "node:os";
import path from "node:path";

/**
 * Where a Claude Code settings file sits: the user's own (`~/.claude/settings.json`), the
 * project's shared one (`.claude/settings.json`, committed) and the project's local one
 * (`.claude/settings.local.json`, not committed by convention, but still in the workspace).
 */
export type ClaudeSettingsScope = "user" | "project" | "local";

/** One settings file Claude Code reads, and whether the user's consent stands behind it. */
export interface ClaudeSettingsFile {
  scope: ClaudeSettingsScope;
  path: string;
  /**
   * True only for the user's own file. Both project files come with the workspace: whatever
   * they would widen (hooks, allow rules) needs the user's approval first, the local file
   * included, since a repository can carry it as easily as the shared one.
   */
  trusted: boolean;
}

/**
 * Claude Code's settings files from lowest to highest precedence (user, project, local; the
 * managed policy file and command-line flags above them are not read here). For a scalar the
 * later file wins; hooks of every file add up, as in Claude Code, which runs them all.
 */
export function claudeSettingsFiles(
  workspace: string,
  homeDir: string = os.homedir(),
): ClaudeSettingsFile[] {
  return [
    { scope: "user", path: path.join(homeDir, ".claude", "settings.json"), trusted: true },
    {
      scope: "project",
      path: path.join(workspace, ".claude", "settings.json"),
      trusted: false,
    },
    {
      scope: "local",
      path: path.join(workspace, ".claude", "settings.local.json"),
      trusted: false,
    },
  ];
}
