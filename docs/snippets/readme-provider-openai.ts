// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { createAgent } from "@pseudoclaude/core";
import { openai } from "@pseudoclaude/provider-openai";

const agent = await createAgent({ provider: openai({ api: "responses" }) }); // OPENAI_API_KEY
const local = await createAgent({
  provider: openai({ baseURL: "http://localhost:11434/v1", apiKey: "ollama", model: "llama3.2" }),
});
await Promise.all([agent.close(), local.close()]);
