import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "@pseudoclaude/core";
import {
  type ConfigLayer,
  type ForeignLayers,
  type LayerName,
  loadConfigFile,
} from "@pseudoclaude/core/plugin";
import { type ClaudeSettingsFile, claudeSettingsFiles } from "./settings-files.js";
import { settingsNotApplied, translateSettings } from "./settings-translation.js";

/**
 * Where Claude Code reads managed settings on Linux (an administrator's, for every user of the
 * machine). The environment variable names another file, for tests and other systems.
 */
export const CLAUDE_MANAGED_SETTINGS_FILE = "/etc/claude-code/managed-settings.json";
export const CLAUDE_MANAGED_SETTINGS_ENV = "PSEUDOCLAUDE_CLAUDE_MANAGED_SETTINGS";

/** Options of {@link claudeCodeLayers}. */
export interface ClaudeCodeLayersOptions {
  /** The managed settings file; default the environment variable, else Claude Code's path. */
  managedFile?: string | undefined;
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Claude Code's settings files as layers of our config (`loadConfig({ foreignLayers })`), in
 * Claude Code's precedence: the user's `~/.claude/settings.json` below our user file, the
 * workspace's `.claude/settings.json` then `.claude/settings.local.json` below our project
 * file, the managed file above everything. Their values are translated into our sections
 * (`permissions`; see `translateSettings`) and keep their positions, so a mistake is shown at
 * its line of the JSON file. The user's and the managed file are the user's (`user` layers);
 * the workspace's two are what the repository carries (`project` layers: consent first).
 */
export function claudeCodeLayers(options: ClaudeCodeLayersOptions = {}): ForeignLayers {
  const env = options.env ?? process.env;
  const managedFile =
    options.managedFile ?? env[CLAUDE_MANAGED_SETTINGS_ENV] ?? CLAUDE_MANAGED_SETTINGS_FILE;
  return (workspace, homeDir = os.homedir()) => {
    const diagnostics: Diagnostic[] = [];
    const [user, ...project] = claudeSettingsFiles(workspace, homeDir);
    const read = (file: ClaudeSettingsFile | { path: string; trusted: true }, managed = false) =>
      settingsLayer(
        file.trusted ? "user" : "project",
        path.resolve(file.path),
        managed,
        diagnostics,
      );
    return {
      user: read(user!),
      project: project.flatMap((file) => read(file)),
      managed: read({ path: managedFile, trusted: true }, true),
      diagnostics,
    };
  };
}

function settingsLayer(
  name: LayerName,
  file: string,
  managed: boolean,
  diagnostics: Diagnostic[],
): ConfigLayer[] {
  const loaded = loadConfigFile(name, file, `Claude Code settings ${file}`);
  // A settings file that cannot be read may hold deny rules: a run without them would be less
  // restricted than the person who wrote them believes, so its problems stop the run.
  diagnostics.push(...loaded.diagnostics.map((diagnostic) => ({ ...diagnostic, blocking: true })));
  const layer = loaded.layers[0];
  if (!layer?.exists || !layer.data) return [];
  const translated = translateSettings(layer.data);
  const notApplied = settingsNotApplied(layer.data);
  return [
    {
      ...layer,
      data: translated.data,
      origin: "claude-code",
      ...(managed ? { managed: true } : {}),
      sourcePath: translated.sourcePath,
      ...(notApplied.length > 0 ? { notApplied } : {}),
    },
  ];
}
