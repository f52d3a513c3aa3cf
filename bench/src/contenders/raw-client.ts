import type { Connected, ServerSpec } from "../contender.js";
import { resultText } from "../contender.js";

/** What the baselines use of an official SDK client, the 1.x `Client` and the v2 one alike. */
export interface RawClient {
  listTools(): Promise<{ tools: unknown[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A baseline's connect: every server at once through `open` (a connected client), its tools
 * listed; a call is the client's `callTool`. One body for both eras' raw SDKs, so their rows
 * differ in the client only.
 */
export async function connectRaw(
  servers: readonly ServerSpec[],
  open: (spec: ServerSpec) => Promise<RawClient>,
): Promise<Connected> {
  const clients = new Map<string, RawClient>();
  // Kept, as an agent keeps them to offer the model: the heap rows count them.
  const listedTools: unknown[] = [];
  await Promise.all(
    servers.map(async (spec) => {
      const client = await open(spec);
      const listed = await client.listTools();
      listedTools.push(...listed.tools);
      clients.set(spec.name, client);
    }),
  );
  return {
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
}
