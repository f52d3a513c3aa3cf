// The floor of any MCP gateway built on the official SDKs: a stdio MCP server that forwards
// tools/list and tools/call to one upstream server through the official client, and does
// nothing else (no policy, no audit, no renaming, no validation). Its row beside the gateway's
// shows what the second hop alone costs. The upstream is BARE_PROXY_UPSTREAM (a ServerSpec as
// JSON); the era is its `era`: 2025-11-25 on the 1.x SDK at both ends, 2026-07-28 on the v2
// packages, as the raw baselines are.
import type { ServerSpec } from "./contender.js";
import { openRawSdk } from "./contenders/raw-sdk.js";
import { openRawV2 } from "./contenders/raw-v2.js";

const upstream = JSON.parse(process.env.BARE_PROXY_UPSTREAM ?? "null") as ServerSpec | null;
if (!upstream) throw new Error("BARE_PROXY_UPSTREAM names no server");
const modern = upstream.era === "2026-07-28";
const client = await (modern ? openRawV2 : openRawSdk)(upstream);
const listTools = async () => (await client.listTools()) as never;
const callTool = async (params: {
  name: string;
  arguments?: Record<string, unknown> | undefined;
}) => (await client.callTool({ name: params.name, arguments: params.arguments ?? {} })) as never;

if (modern) {
  const { Server } = await import("@modelcontextprotocol/server");
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  serveStdio(() => {
    const server = new Server(
      { name: "bare-proxy", version: "1.0.0" },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler("tools/list", listTools);
    server.setRequestHandler("tools/call", (request) => callTool(request.params));
    return server;
  });
} else {
  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import(
    "@modelcontextprotocol/sdk/types.js"
  );
  const server = new Server(
    { name: "bare-proxy", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, listTools);
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params));
  await server.connect(new StdioServerTransport());
}
process.stdin.once("end", () => void client.close().finally(() => process.exit(0)));
