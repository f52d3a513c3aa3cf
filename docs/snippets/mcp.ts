// The code of docs/mcp.md: compiled by CI, so the guide cannot go stale.
// #region use
import { createAgent } from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";

const agent = await createAgent({ plugins: [mcp()] }); // servers from config files
const agent2 = await createAgent({
  // or from code
  plugins: [mcp({ servers: { docs: { type: "http", url: "https://docs.example.com/mcp" } } })],
});
// #endregion
await Promise.all([agent.close(), agent2.close()]);
