// A workspace whose user config gives the gateway an upstream MCP server (the behaviours
// fixture, its log kept), allow and deny rules, and an audit file, as a person would set one up.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { CLI_BIN } from "./cli.js";

export interface GatewayWorkspace extends TempWorkspace {
  audit: string;
  /** The audit file's records so far. */
  auditRecords(): Promise<Array<Record<string, unknown>>>;
  /** What the upstream behaviours server logged so far (`call echo`, `cancelled hang 3`…). */
  upstreamLog(): Promise<string[]>;
  /** How a client starts `pseudoclaude serve --mcp` over stdio here. */
  stdio(extra?: readonly string[]): {
    command: string;
    args: string[];
    env: Record<string, string>;
    cwd: string;
  };
}

/**
 * `gateway` settings on top of the default ones, as YAML lines, and more of the behaviours
 * server's tools to allow.
 */
export async function createGatewayWorkspace(
  extraYaml = "",
  alsoAllow: readonly string[] = [],
): Promise<GatewayWorkspace> {
  const workspace = await createTempWorkspace("pc-gateway-");
  const audit = path.join(workspace.home, "audit.jsonl");
  const upstream = path.join(workspace.home, "upstream.log");
  await workspace.writeConfig(
    "user",
    [
      "mcp_servers:",
      "  behaviours:",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(fixture("behaviours"))}]`,
      `    env: { FIXTURE_LOG: ${JSON.stringify(upstream)} }`,
      "permissions:",
      `  allow: ${JSON.stringify(["mcp__behaviours__echo", "mcp__behaviours__add_tool", "mcp__behaviours__hang", ...alsoAllow])}`,
      '  deny: ["mcp__behaviours__crash", "run_command(rm *)"]',
      "gateway:",
      `  audit: ${JSON.stringify(audit)}`,
      extraYaml,
    ].join("\n"),
  );
  return {
    ...workspace,
    audit,
    auditRecords: async () =>
      (await readFile(audit, "utf8").catch(() => ""))
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    upstreamLog: async () =>
      (await readFile(upstream, "utf8").catch(() => "")).split("\n").filter(Boolean),
    stdio: (extra = []) => ({
      command: process.execPath,
      args: [CLI_BIN, "serve", "--mcp", "--workspace", workspace.root, ...extra],
      env: gatewayEnv(workspace),
      cwd: workspace.root,
    }),
  };
}

/** The environment a gateway child runs in: this workspace's home, no keys of this machine. */
export function gatewayEnv(workspace: TempWorkspace): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/API_KEY|TOKEN/.test(key)) env[key] = value;
  return { ...env, HOME: workspace.home, USERPROFILE: workspace.home };
}
