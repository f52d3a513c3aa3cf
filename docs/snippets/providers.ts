// The code of docs/providers.md: compiled by CI, so the guide cannot go stale.
// #region swap
import { createAgent } from "@pseudoclaude/core";
import { anthropic } from "@pseudoclaude/provider-anthropic";
import { openai } from "@pseudoclaude/provider-openai";

await createAgent({ provider: anthropic() }); // ANTHROPIC_API_KEY
await createAgent({ provider: anthropic({ model: "claude-opus-5-5" }) });
await createAgent({ provider: openai() }); // OPENAI_API_KEY
await createAgent({ provider: openai({ api: "responses", strict: true }) });
await createAgent({
  provider: openai({ baseURL: "http://localhost:11434/v1", apiKey: "ollama", model: "llama3.2" }),
});
// #endregion

// #region registry
// By name, as the CLI's --provider: in code, or from the config's `provider: { name, model }`.
const providers = { openai, anthropic };
await createAgent({ providers, provider: "openai:gpt-5.4-mini" });
await createAgent({ providers }); // the config's provider.name chooses, with its settings
// #endregion
