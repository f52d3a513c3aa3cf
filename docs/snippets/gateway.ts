// The code of docs/gateway.md: compiled by CI, so the guide cannot go stale.
import { createAgent } from "@pseudoclaude/core";
import { ClientApprovals, gatewayPlugin, startGateway } from "@pseudoclaude/gateway";
import { mcp } from "@pseudoclaude/plugin-mcp";

const approvals = new ClientApprovals();
const agent = await createAgent({
  plugins: [
    mcp({
      servers: { memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } },
    }),
    gatewayPlugin({ expose: { deny: ["mcp__memory__delete_*"] }, audit: false }),
  ],
  policy: { allow: ["mcp__memory__read_graph"] },
  approve: approvals.approver,
});
const gateway = await startGateway({
  agent,
  approvals,
  serve: { http: { port: 8765, auth: { kind: "token", token: process.env.GATEWAY_TOKEN ?? "" } } },
  version: "1.0.0",
});
console.log(`Serving ${gateway.gateway.tools.list().length} tools at ${gateway.url}`);
await gateway.close();
await agent.close();
