import type { MCPClient } from "@ai-sdk/mcp";
import type { Connected, Contender, ServerSpec } from "../contender.js";
import { resultText } from "../contender.js";

type ToolSet = Awaited<ReturnType<MCPClient["tools"]>>;

/**
 * The Vercel AI SDK as its MCP docs show it: one `createMCPClient` per server (the stdio
 * transport from `@ai-sdk/mcp/mcp-stdio`, `{ type: "http", url }` for Streamable HTTP), then
 * `await client.tools()`, the tool set `generateText({ tools })` takes. A call is what the AI
 * SDK does for a model's tool call: `tools[name].execute(args, { toolCallId, messages })`.
 * It speaks 2026-07-28 by itself (`server/discover` first, `initialize` if that fails), but over
 * stdio it waits 1 s for the discovery answer (a constant, no option) and then sends
 * `initialize`: a 2026-only server slower than that to answer is refused, a dual-era one is
 * spoken to in 2025-11-25.
 */
export const aiSdk: Contender = {
  name: "ai-sdk",
  package: "@ai-sdk/mcp@2.0.99",
  async load() {
    await Promise.all([import("@ai-sdk/mcp"), import("@ai-sdk/mcp/mcp-stdio")]);
  },
  async connect(servers) {
    const { createMCPClient } = await import("@ai-sdk/mcp");
    const clients: MCPClient[] = [];
    const toolSets = new Map<string, ToolSet>();
    let calls = 0;
    const settled = await Promise.allSettled(
      servers.map(async (spec) => {
        const client = await createMCPClient({ transport: await transportFor(spec) });
        clients.push(client);
        toolSets.set(spec.name, await client.tools());
      }),
    );
    const failed = settled.find((outcome) => outcome.status === "rejected");
    if (failed) {
      await Promise.allSettled(clients.map((client) => client.close()));
      throw failed.reason;
    }
    const connected: Connected = {
      async call(server, tool, args) {
        const found = toolSets.get(server)?.[tool];
        if (!found) throw new Error(`no tool ${tool} on server ${server}`);
        const result = await found.execute(args, {
          toolCallId: `call_${++calls}`,
          messages: [],
          context: {},
        });
        return resultText(result);
      },
      toolCount: () =>
        [...toolSets.values()].reduce((sum, set) => sum + Object.keys(set).length, 0),
      async close() {
        await Promise.all(clients.map((client) => client.close()));
      },
    };
    return connected;
  },
};

async function transportFor(spec: ServerSpec) {
  if (spec.transport === "http") return { type: "http" as const, url: spec.url! };
  const { StdioMCPTransport } = await import("@ai-sdk/mcp/mcp-stdio");
  return new StdioMCPTransport({
    command: spec.command!,
    args: spec.args ?? [],
    env: spec.env ?? {},
  });
}
