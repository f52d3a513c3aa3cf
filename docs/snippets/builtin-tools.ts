// The code of docs/builtin-tools.md: compiled by CI, so the guide cannot go stale.
// #region use
import { createAgent } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";

const agent = await createAgent({ plugins: [builtinTools()] });
// Options beat the config file:
const wider = await createAgent({
  plugins: [builtinTools({ extraRoots: ["../shared"], maxOutputChars: 50_000 })],
});
// #endregion
await Promise.all([agent.close(), wider.close()]);
