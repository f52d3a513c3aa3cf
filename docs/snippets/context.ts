// The code of docs/context.md: compiled by CI, so the guide cannot go stale.
import { createAgent, DefaultContextManager } from "@pseudoclaude/core";
import { anthropic } from "@pseudoclaude/provider-anthropic";

// #region options
const agent = await createAgent({
  provider: anthropic({ apiKey: "sk-ant-example", contextWindow: 1_000_000 }), // the 1M beta
  contextManager: new DefaultContextManager({
    threshold: 0.7, // compact when a request would pass 70% of the window
    target: 0.4, // and bring it down to 40%
    keepTurns: 3, // the latest three model turns stay whole
  }),
});
// #endregion

// #region compact
const compaction = await agent.compact(); // what a chat's /compact does
if (compaction) console.log(compaction.stage, compaction.tokensBefore, compaction.tokensAfter);
// #endregion
await agent.close();
