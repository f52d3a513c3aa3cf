import type { Contender, ServerSpec } from "../contender.js";
import { connectRaw, type RawClient } from "./raw-client.js";

/**
 * The 2025-11-25 rows' baseline: the official 1.x SDK's client, every server connected at once,
 * tools listed.
 */
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
    return connectRaw(servers, openRawSdk);
  },
};

/** One server connected with the 1.x SDK's client (the gateway rows' client of 2025-11-25). */
export async function openRawSdk(spec: ServerSpec): Promise<RawClient> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(await transportFor(spec));
  return client;
}

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
