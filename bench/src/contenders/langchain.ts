import type { MultiServerMCPClient } from "@langchain/mcp-adapters";
import type { Connected, Contender, ServerSpec } from "../contender.js";
import { resultText } from "../contender.js";

type LangChainTool = Awaited<ReturnType<MultiServerMCPClient["getTools"]>>[number];

/**
 * LangChain.js as its MCP adapter docs show it: one `MultiServerMCPClient({ mcpServers })`,
 * `await client.getTools()` (the array `createAgent` / `createReactAgent` takes), and a call
 * is `tool.invoke(args)`, which is what the agent's ToolNode does. Defaults kept: tool names
 * are not prefixed with the server name, so with several servers the flat array holds
 * same-named tools; `getTools(server)` (the documented per-server form, served from the
 * client's cache once connected) tells them apart.
 */
export const langchain: Contender = {
  name: "langchain",
  package: "@langchain/mcp-adapters@1.1.4",
  async load() {
    await import("@langchain/mcp-adapters");
  },
  async connect(servers) {
    const { MultiServerMCPClient } = await import("@langchain/mcp-adapters");
    const client = new MultiServerMCPClient({
      mcpServers: Object.fromEntries(servers.map((spec) => [spec.name, entry(spec)])),
    });
    const byServer = new Map<string, Map<string, LangChainTool>>();
    let count = 0;
    try {
      count = (await client.getTools()).length;
      for (const spec of servers) {
        const tools = await client.getTools(spec.name);
        byServer.set(spec.name, new Map(tools.map((tool) => [tool.name, tool])));
      }
    } catch (error) {
      await client.close();
      throw error;
    }
    const connected: Connected = {
      async call(server, tool, args) {
        const found = byServer.get(server)?.get(tool);
        if (!found) throw new Error(`no tool ${tool} on server ${server}`);
        return resultText(await found.invoke(args));
      },
      toolCount: () => count,
      close: () => client.close(),
    };
    return connected;
  },
};

function entry(spec: ServerSpec) {
  if (spec.transport === "http") return { transport: "http" as const, url: spec.url! };
  return {
    transport: "stdio" as const,
    command: spec.command!,
    args: spec.args ?? [],
    env: spec.env ?? {},
  };
}
