import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Connected, Contender, ServerSpec } from "../contender.js";
import { resultText } from "../contender.js";

/** The baseline: the official SDK's client, every server connected at once, tools listed. */
export const rawSdk: Contender = {
  name: "raw-sdk",
  package: "@modelcontextprotocol/sdk@1.32.2",
  async load() {
    await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/stdio.js"),
      import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    ]);
  },
  async connect(servers) {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const clients = new Map<string, Client>();
    // Kept, as an agent keeps them to offer the model: the heap rows count them.
    const listedTools: unknown[] = [];
    await Promise.all(
      servers.map(async (spec) => {
        const client = new Client({ name: "bench", version: "1.0.0" });
        await client.connect(await transportFor(spec));
        const listed = await client.listTools();
        listedTools.push(...listed.tools);
        clients.set(spec.name, client);
      }),
    );
    const connected: Connected = {
      async call(server, tool, args) {
        const client = clients.get(server);
        if (!client) throw new Error(`no server ${server}`);
        return resultText(await client.callTool({ name: tool, arguments: args }));
      },
      toolCount: () => listedTools.length,
      async close() {
        await Promise.all([...clients.values()].map((client) => client.close()));
      },
    };
    return connected;
  },
};

async function transportFor(spec: ServerSpec) {
  if (spec.transport === "http") {
    const { StreamableHTTPClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    return new StreamableHTTPClientTransport(new URL(spec.url!));
  }
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  return new StdioClientTransport({
    command: spec.command!,
    args: spec.args ?? [],
    env: { ...(process.env as Record<string, string>), ...spec.env },
  });
}
