// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { createAgent } from "@pseudoclaude/core";
import { hooks } from "@pseudoclaude/plugin-hooks";

// Hooks from the config file and from .claude/settings*.json, in Claude Code's format.
const agent = await createAgent({ plugins: [hooks()] });
await agent.close();
