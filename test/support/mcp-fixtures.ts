// Helpers for tests that start fixture MCP servers over real stdio.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Agent, type CreateAgentOptions, createAgent } from "@pseudoclaude/core";
import { type McpPluginOptions, mcp } from "@pseudoclaude/plugin-mcp";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Absolute path of a compiled fixture server, e.g. `fixture("behaviours")`. */
export function fixture(name: string): string {
  return path.join(here, "..", "fixtures", "mcp", `${name}.js`);
}

/** A stdio server entry for a fixture. */
export function stdioFixture(
  name: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { type: "stdio", command: process.execPath, args: [fixture(name)], ...extra };
}

/** A temp dir with a log file path the fixture servers append to (FIXTURE_LOG). */
export async function scratch(): Promise<{
  dir: string;
  log: string;
  lines(): Promise<string[]>;
  cleanup(): Promise<void>;
}> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pc-mcp-"));
  const log = path.join(dir, "server.log");
  return {
    dir,
    log,
    lines: async () => (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** An agent with only the MCP plugin and the given servers (no config files). */
export function mcpAgent(
  servers: Record<string, unknown>,
  options: Partial<CreateAgentOptions> & { mcp?: Omit<McpPluginOptions, "servers"> } = {},
): Promise<Agent> {
  const { mcp: mcpOptions, ...agentOptions } = options;
  return createAgent({
    config: false,
    workspace: os.tmpdir(),
    plugins: [mcp({ ...mcpOptions, servers })],
    ...agentOptions,
  });
}

/** Wait until `check` is true, polling; fails after `ms`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  ms = 5_000,
  what = "condition",
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
}

/** True while a process exists and is not a zombie. */
export async function processAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const status = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Field 3 is the state; Z is a zombie (dead, waiting to be reaped).
  return !/^\d+ \(.*\) Z/.test(status);
}
