// The code of docs/durable-runs.md: compiled by CI, so the guide cannot go stale.
import { createAgent } from "@pseudoclaude/core";
import { serveDurableAgent } from "@pseudoclaude/durable-restate";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { anthropic } from "@pseudoclaude/provider-anthropic";

// #region worker
await serveDurableAgent({
  port: 9080,
  onInterruptedSideEffect: "ask", // the default: ask before re-running a call that may have run
  // Called for every invocation, and again when a run is replayed on another worker.
  createAgent: (session) =>
    createAgent({
      session, // the conversation, kept in the session object's state
      provider: anthropic(),
      plugins: [builtinTools(), mcp()],
    }),
});
// #endregion
