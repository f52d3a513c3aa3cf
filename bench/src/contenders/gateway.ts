import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Connected, Contender, ServerSpec } from "../contender.js";
import { connectRaw } from "./raw-client.js";
import { openRawSdk } from "./raw-sdk.js";
import { openRawV2 } from "./raw-v2.js";

const CLI_BIN = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "packages",
  "cli",
  "bin",
  "pseudoclaude.js",
);

/**
 * `pseudoclaude serve --mcp` over stdio between the official client and the row's echo
 * servers, set up as a person would: the servers under `mcp_servers` in the user's config, an
 * allow rule for their tools, and the audit file off or on (on is the default). The client is
 * the row's baseline's (the 1.x SDK for 2025-11-25, the v2 client pinned to 2026-07-28), so
 * the ratio is what the gateway's hop costs, the same client at both ends.
 */
function gatewayContender(name: string, audit: boolean): Contender {
  return {
    name,
    package: "@pseudoclaude/cli@0.1.0 serve --mcp (stdio)",
    async load() {
      await Promise.all([
        import("@modelcontextprotocol/sdk/client/index.js"),
        import("@modelcontextprotocol/sdk/client/stdio.js"),
        import("@modelcontextprotocol/client"),
        import("@modelcontextprotocol/client/stdio"),
      ]);
    },
    async connect(servers) {
      const home = await mkdtemp(path.join(os.tmpdir(), "pc-bench-gateway-"));
      const workspace = path.join(home, "workspace");
      await mkdir(path.join(home, ".PseudoClaude"), { recursive: true });
      await mkdir(workspace);
      await writeFile(
        path.join(home, ".PseudoClaude", "config.yaml"),
        config(servers, audit ? path.join(home, "gateway-audit.jsonl") : false),
      );
      const era = servers[0]?.era ?? "2025-11-25";
      const spec: ServerSpec = {
        name: "gateway",
        transport: "stdio",
        command: process.execPath,
        args: [CLI_BIN, "serve", "--mcp", "--workspace", workspace],
        env: { HOME: home, USERPROFILE: home },
      };
      let inner: Connected;
      try {
        inner = await connectRaw([spec], era === "2026-07-28" ? openRawV2 : openRawSdk);
      } catch (error) {
        await rm(home, { recursive: true, force: true });
        throw error;
      }
      return {
        call: (server, tool, args) => inner.call("gateway", `mcp__${server}__${tool}`, args),
        toolCount: () => inner.toolCount(),
        async close() {
          try {
            await inner.close();
          } finally {
            await rm(home, { recursive: true, force: true });
          }
        },
      };
    },
  };
}

function config(servers: readonly ServerSpec[], audit: string | false): string {
  const lines = ["mcp_servers:"];
  for (const spec of servers) {
    if (spec.transport !== "stdio" || !spec.command)
      throw new Error(`the gateway rows are stdio only (${spec.name})`);
    lines.push(
      `  ${spec.name}:`,
      `    command: ${JSON.stringify(spec.command)}`,
      `    args: ${JSON.stringify(spec.args ?? [])}`,
      `    env: ${JSON.stringify(spec.env ?? {})}`,
    );
  }
  lines.push(
    "permissions:",
    `  allow: ${JSON.stringify(servers.map((spec) => `mcp__${spec.name}__*`))}`,
    "gateway:",
    `  audit: ${JSON.stringify(audit)}`,
  );
  return `${lines.join("\n")}\n`;
}

const BARE_PROXY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bare-proxy.js");

/**
 * The same hop with nothing in it: each echo server behind `bare-proxy.ts`, the official
 * server and client of the row's era forwarding tools/list and tools/call. What a gateway on
 * the official SDKs cannot go below, measured in the same run as ours.
 */
export const bareProxy: Contender = {
  name: "bare-proxy",
  package:
    "@modelcontextprotocol/sdk 1.32.2 or server/client 2.4.0, forwarding (bench/src/bare-proxy.ts)",
  async load() {
    await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/stdio.js"),
      import("@modelcontextprotocol/client"),
      import("@modelcontextprotocol/client/stdio"),
    ]);
  },
  async connect(servers) {
    const era = servers[0]?.era ?? "2025-11-25";
    const proxies: ServerSpec[] = servers.map((spec) => ({
      name: spec.name,
      transport: "stdio",
      command: process.execPath,
      args: [BARE_PROXY],
      env: { BARE_PROXY_UPSTREAM: JSON.stringify(spec) },
      era,
    }));
    return connectRaw(proxies, era === "2026-07-28" ? openRawV2 : openRawSdk);
  },
};

/** Through the gateway, its audit file off. */
export const gateway = gatewayContender("gateway", false);
/** Through the gateway as it starts by default, its audit file on. */
export const gatewayAudit = gatewayContender("gateway-audit", true);
