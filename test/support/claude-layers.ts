// Config options that read Claude Code's settings files as the CLI does, for tests that build an
// agent in code: the hooks plugin reads no file of its own, so its hooks come from these layers.
import path from "node:path";
import { claudeCodeLayers } from "@pseudoclaude/compat-claude-code";
import type { TempWorkspace } from "@pseudoclaude/testing";

/**
 * `createAgent({ config })` options with Claude Code's user, project, local and managed settings
 * as layers; the managed file is the fake home's `managed-settings.json` (as the CLI's tests set
 * it), never the machine's own `/etc/claude-code`.
 */
export function withClaudeLayers(workspace: TempWorkspace) {
  return {
    homeDir: workspace.home,
    foreignLayers: claudeCodeLayers({
      managedFile: path.join(workspace.home, "managed-settings.json"),
    }),
  };
}
