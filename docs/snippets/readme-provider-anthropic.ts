// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { createAgent } from "@pseudoclaude/core";
import { anthropic } from "@pseudoclaude/provider-anthropic";

const agent = await createAgent({ provider: anthropic() }); // ANTHROPIC_API_KEY, default model
const chosen = await createAgent({
  provider: anthropic({ model: "claude-opus-5-5", thinkingBudgetTokens: 4_000 }),
});
await Promise.all([agent.close(), chosen.close()]);
