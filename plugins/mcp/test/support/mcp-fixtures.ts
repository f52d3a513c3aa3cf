// Helpers for tests that start fixture MCP servers over real stdio.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Agent,
  type CreateAgentOptions,
  createAgent,
  type ElicitationRequest,
  type ElicitationResponse,
} from "@pseudoclaude/core";
import { type McpPluginOptions, type McpServerEntry, mcp } from "@pseudoclaude/plugin-mcp";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Absolute path of a compiled fixture server, e.g. `fixture("behaviours")`. */
export function fixture(name: string): string {
  return path.join(here, "..", "fixtures", `${name}.js`);
}

/** A stdio server entry for a fixture. */
export function stdioFixture(name: string, extra: Record<string, unknown> = {}): McpServerEntry {
  // The extra keys are the test's to choose (some are wrong on purpose).
  return {
    type: "stdio",
    command: process.execPath,
    args: [fixture(name)],
    ...extra,
  } as McpServerEntry;
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
    // Tests pass entries of every shape, some wrong on purpose: the plugin checks them.
    plugins: [mcp({ ...mcpOptions, servers: servers as Record<string, McpServerEntry> })],
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

/** An agent with the given servers, in bypass mode, whose person accepts every elicitation. */
export async function elicitingAgent(
  servers: Record<string, unknown>,
  content: ElicitationResponse["content"] = { confirm: true },
): Promise<{ agent: Agent; asked: ElicitationRequest[] }> {
  const asked: ElicitationRequest[] = [];
  const agent = await mcpAgent(servers, {
    policy: { mode: "bypass" },
    elicit: async (request) => {
      asked.push(request);
      return { action: "accept", content };
    },
  });
  return { agent, asked };
}

/** What a server's connection says of itself: its state and the protocol era it speaks. */
export type ServerPart = { state: string; protocolVersion?: string; message?: string };

/** The first connection part of MCP server `server`, as `agent.sources()` reports it. */
export function serverPart(agent: Agent, server: string): ServerPart | undefined {
  return agent.sources().find((source) => source.id === `mcp:${server}`)?.status.parts?.[0] as
    | ServerPart
    | undefined;
}

/** How many processes a fixture started, by the `start <pid>` lines it logs. */
export async function startsLogged(log: { lines(): Promise<string[]> }): Promise<number> {
  return (await log.lines()).filter((line) => line.startsWith("start ")).length;
}

/**
 * Call a fixture's `slow` tool `tool`, abort it 300 ms later and wait until the server logged
 * that its handler saw the cancellation (`cancelled slow`); returns the aborted call's outcome.
 */
export async function abortSlowCall(
  agent: Agent,
  tool: string,
  log: { lines(): Promise<string[]> },
): Promise<Awaited<ReturnType<Agent["callTool"]>>> {
  const controller = new AbortController();
  const slow = agent.callTool(tool, {}, { signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 300));
  controller.abort();
  const outcome = await slow;
  await eventually(
    async () => (await log.lines()).includes("cancelled slow"),
    10_000,
    "the server's handler to see the cancellation",
  );
  return outcome;
}

/** A protocol era a fixture can be told to speak alone, and the version `auto` must settle on. */
export interface FixtureEra {
  version: "2025-11-25" | "2026-07-28";
  /** The environment that makes an era-aware fixture (kit.ts serveEra, hostile.ts) speak it. */
  env: Record<string, string>;
}

/** Both eras, for tests of a behaviour that exists in each. */
export const FIXTURE_ERAS: readonly FixtureEra[] = [
  { version: "2025-11-25", env: {} },
  { version: "2026-07-28", env: { FIXTURE_ERA: "2026" } },
];
