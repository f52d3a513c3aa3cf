// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { createAgent } from "@pseudoclaude/core";
import { serveDurableAgent } from "@pseudoclaude/durable-restate";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { anthropic } from "@pseudoclaude/provider-anthropic";

// A worker: register its URL with your Restate server (POST <admin>/deployments).
const worker = await serveDurableAgent({
  port: 9080,
  // Called for every invocation, and again when a run is replayed on another worker.
  createAgent: (session) =>
    createAgent({ session, provider: anthropic(), plugins: [builtinTools()] }),
});
console.log(`worker at ${worker.url}`);
