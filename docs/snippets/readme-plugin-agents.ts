// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { createAgent } from "@pseudoclaude/core";
import { agents } from "@pseudoclaude/plugin-agents";

// Each .claude/agents/*.md or .PseudoClaude/agents/*.md file becomes a tool agent__<name>.
const agent = await createAgent({ plugins: [agents()] });
await agent.close();
