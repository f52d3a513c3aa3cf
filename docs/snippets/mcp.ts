// The code of docs/mcp.md: compiled by CI, so the guide cannot go stale.
// #region use
import { createAgent } from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";

const agent = await createAgent({ plugins: [mcp()] }); // servers from config files
const agent2 = await createAgent({
  // or from code: typed per transport, camelCase
  plugins: [
    mcp({
      servers: {
        docs: { url: "https://docs.example.com/mcp", callTimeoutMs: 20_000 },
        files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
      },
    }),
  ],
});
// #endregion
await Promise.all([agent.close(), agent2.close()]);
