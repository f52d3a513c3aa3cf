// An agent wired to real MCP servers over stdio (the official reference servers and the fixture
// servers), with the waits and probes the reference-server tests share.
import assert from "node:assert/strict";
import {
  type Agent,
  type AgentEvents,
  type CreateAgentOptions,
  createAgent,
  type ToolDefinition,
} from "@pseudoclaude/core";
import { type ToolProgress } from "@pseudoclaude/core/plugin";
import { type McpServerEntry, mcp } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { markerEnv, newMarker } from "@pseudoclaude/testing/system";
import { eventually } from "./mcp-fixtures.js";
import { EVERYTHING } from "./reference-server-paths.js";

export { EVERYTHING, FILESYSTEM, MEMORY, ROOT } from "./reference-server-paths.js";

export const TIMEOUT = { timeout: 30_000 };
/** Close must end everything well within this; it is a hang guard, not a performance bar. */
export const CLOSE_BOUND_MS = 10_000;

/** An agent with only the MCP plugin and these servers, in its own temp workspace. */
export interface Harness {
  agent: Agent;
  workspace: TempWorkspace;
  /** Marker in every server's env (see support/processes). */
  marker: string;
  dispose(): Promise<void>;
}

export async function startAgent(
  servers: Record<string, Record<string, unknown>>,
  options: Partial<CreateAgentOptions> = {},
  workspace?: TempWorkspace,
): Promise<Harness> {
  const ws = workspace ?? (await createTempWorkspace("pc-e2e-mcp-"));
  const marker = newMarker();
  const configured: Record<string, Record<string, unknown>> = {};
  for (const [name, server] of Object.entries(servers)) {
    const env = { ...(server.env as Record<string, string> | undefined), ...markerEnv(marker) };
    configured[name] = { ...server, env };
  }
  let agent: Agent;
  try {
    agent = await createAgent({
      config: false,
      workspace: ws.root,
      plugins: [mcp({ servers: configured as Record<string, McpServerEntry> })],
      ...options,
    });
  } catch (error) {
    await ws.cleanup();
    throw error;
  }
  return {
    agent,
    workspace: ws,
    marker,
    async dispose() {
      try {
        await agent.close();
      } finally {
        await ws.cleanup();
      }
    },
  };
}

export const everything = (extra: Record<string, unknown> = {}) => ({
  everything: { type: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"], ...extra },
});

export function toolsOf(agent: Agent, server: string): ToolDefinition[] {
  return agent.registry
    .definitions()
    .filter((tool) => tool.source === `mcp:${server}`)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

export function statsOf(agent: Agent, server: string) {
  const report = agent.sources().find((source) => source.id === `mcp:${server}`);
  assert.ok(report, `source mcp:${server} is reported`);
  return report.status;
}

/**
 * server-everything registers its capability-dependent tools (roots, elicitation, sampling)
 * after `initialize` and then sends tools/list_changed: wait until the re-listing landed. The
 * elicitation tool comes only to an agent given an elicit callback (`elicitation: true`).
 */
export async function untilConditionalToolsListed(
  agent: Agent,
  { elicitation = false }: { elicitation?: boolean } = {},
): Promise<void> {
  await eventually(
    () =>
      agent.registry.get("mcp__everything__get-roots-list") !== undefined &&
      (!elicitation ||
        agent.registry.get("mcp__everything__trigger-elicitation-request") !== undefined),
    5_000,
    "the conditional tools of server-everything",
  );
}

/** Record the progress events of calls to one tool, one list per call, until `stop`. */
export function recordProgress(agent: Agent, tool: string) {
  const byCall = new Map<string, ToolProgress[]>();
  const listener = ({ call, progress }: AgentEvents["tool-progress"][0]) => {
    if (call.name !== tool) return;
    const list = byCall.get(call.id) ?? [];
    list.push(progress);
    byCall.set(call.id, list);
  };
  agent.on("tool-progress", listener);
  return {
    /** Progress values per call, in call order. */
    calls: () => [...byCall.values()].map((events) => events.map((event) => event.progress)),
    events: () => [...byCall.values()],
    stop: () => agent.off("tool-progress", listener),
  };
}
