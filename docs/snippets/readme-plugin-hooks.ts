// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { claudeCodeLayers } from "@pseudoclaude/compat-claude-code";
import { createAgent, loadConfig } from "@pseudoclaude/core";
import { hooks } from "@pseudoclaude/plugin-hooks";

// Hooks from the config's `hooks` sections, in Claude Code's format. Claude Code's settings
// files (.claude/settings*.json, managed settings) count once they are layers of the config.
const workspace = process.cwd();
const loaded = loadConfig({ workspace, foreignLayers: claudeCodeLayers() });
const agent = await createAgent({ workspace, config: { loaded }, plugins: [hooks()] });
await agent.close();
