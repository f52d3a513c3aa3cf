// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { createAgent } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/provider-scripted";

const provider = new ScriptedProvider([
  { tool_calls: [{ name: "read_file", arguments: { path: "README.md" } }] },
  { text: "The README says hello." },
]);
const agent = await createAgent({ provider });
await agent.run("Summarize the README.");
console.log(provider.requests.length); // every request the model was sent
await agent.close();
