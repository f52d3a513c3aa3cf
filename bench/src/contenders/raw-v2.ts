import type { Contender, ServerSpec } from "../contender.js";
import { connectRaw, type RawClient } from "./raw-client.js";

/**
 * The 2026-07-28 rows' baseline: the official SDK's v2 client (`@modelcontextprotocol/client`,
 * the package that replaces the 1.x SDK for 2026-07-28), every server connected at once, tools
 * listed, as the raw 1.x SDK is in the 2025 rows: the least the official client does to reach a
 * server known to speak 2026-07-28, one `server/discover` on one process.
 * - Pinned to 2026-07-28 (`versionNegotiation: { mode: { pin } }`): its default mode
 *   (`legacy`) speaks 2025-11-25 only.
 * - Over stdio, a subclass of its `StdioClientTransport`: on that class exactly, every probing
 *   mode (pinned too) sends `server/discover` to a throwaway sibling process first and starts
 *   the real one after, so each server starts twice (measured, one server with a 300 ms
 *   opening: two spawns, connect 602 ms then 576 ms until tools/list answered, against 595 and
 *   10 with the subclass). The client's docs say subclasses probe in place; that cost is how
 *   it negotiates, not what the protocol costs, and the 2025 baseline starts each server once.
 */
export const rawV2: Contender = {
  name: "raw-v2",
  package: "@modelcontextprotocol/client@2.4.0",
  async load() {
    await Promise.all([
      import("@modelcontextprotocol/client"),
      import("@modelcontextprotocol/client/stdio"),
    ]);
  },
  async connect(servers) {
    return connectRaw(servers, openRawV2);
  },
};

/** One server connected with the v2 client pinned to 2026-07-28 (also the gateway rows'). */
export async function openRawV2(spec: ServerSpec): Promise<RawClient> {
  const { Client } = await import("@modelcontextprotocol/client");
  const client = new Client(
    { name: "bench", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(await transportFor(spec));
  return client;
}

async function transportFor(spec: ServerSpec) {
  if (spec.transport === "http") {
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    return new StreamableHTTPClientTransport(new URL(spec.url!));
  }
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  // Probes in place, on the one process (see above).
  class InPlaceStdioTransport extends StdioClientTransport {}
  return new InPlaceStdioTransport({
    command: spec.command!,
    args: spec.args ?? [],
    env: { ...(process.env as Record<string, string>), ...spec.env },
  });
}
