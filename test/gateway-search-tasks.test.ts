// Long-running upstream tools called through search mode's `call_tool`: the upstream server whose
// tools run as MCP tasks (plugins/mcp/test/fixtures/tasks.ts) behind `serve --mcp` with
// `expose_mode: search`, and as the client our own MCP plugin in an agent, speaking 2026-07-28
// with the Tasks extension. A call through call_tool becomes the gateway's task exactly as a
// direct call of the tool does, and a client without the extension is told the same.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Agent, ToolResult } from "@pseudoclaude/core";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { eventually, fixture, mcpAgent, scratch } from "#mcp-test/mcp-fixtures.js";
import { CLI_BIN } from "./support/cli.js";
import { connectClient } from "./support/gateway-clients.js";
import { gatewayEnv } from "./support/gateway-workspace.js";

const TIMEOUT = { timeout: 60_000 };

const text = (result: ToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("");

describe("gateway search mode: call_tool on a tool that runs as a task", () => {
  let workspace: TempWorkspace;
  let files: Awaited<ReturnType<typeof scratch>>;
  let agent: Agent;
  const gateway = () => ({
    command: process.execPath,
    args: [CLI_BIN, "serve", "--mcp", "--workspace", workspace.root],
    env: gatewayEnv(workspace),
    cwd: workspace.root,
  });

  before(async () => {
    workspace = await createTempWorkspace("pc-gateway-search-tasks-");
    files = await scratch();
    await workspace.writeConfig(
      "user",
      [
        "mcp_servers:",
        "  jobs:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(fixture("tasks"))}]`,
        `    env: { FIXTURE_LOG: ${JSON.stringify(files.log)} }`,
        "permissions:",
        '  allow: ["mcp__jobs__*"]',
        "gateway:",
        "  audit: false",
        "  expose_mode: search",
        "  rename:",
        '    "mcp__jobs__*": "*"',
      ].join("\n"),
    );
    agent = await mcpAgent(
      { gw: { type: "stdio", ...gateway(), protocol: "2026-07-28", call_timeout_ms: 1_000 } },
      { policy: { mode: "bypass" } },
    );
  });
  after(async () => {
    await agent?.close();
    await workspace?.cleanup();
    await files?.cleanup();
  });

  it("the agent's client sees the two tools only", () => {
    const names = agent.registry
      .definitions()
      .filter((definition) => definition.source === "mcp:gw")
      .map((definition) => definition.name);
    assert.deepEqual(names, ["mcp__gw__search_tools", "mcp__gw__call_tool"]);
  });

  it(
    "a task that runs past the client's call timeout completes with its result",
    TIMEOUT,
    async () => {
      const { result } = await agent.callTool("mcp__gw__call_tool", {
        name: "build",
        arguments: { steps: 3, step_ms: 600 },
      });
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(text(result), "built in 3 steps");
      assert.ok((result.metadata.duration_ms as number) >= 1_800, "it ran past the 1 s timeout");
      assert.match(String(result.metadata.task_id), /^[0-9a-f-]{36}$/);
    },
  );

  it("cancelling the call cancels the upstream server's task", TIMEOUT, async () => {
    const before = new Set(await files.lines());
    const controller = new AbortController();
    const call = agent.callTool(
      "mcp__gw__call_tool",
      { name: "forever" },
      { signal: controller.signal },
    );
    let upstreamTask = "";
    await eventually(
      async () => {
        const line = (await files.lines()).find(
          (entry) => !before.has(entry) && / still working \(2\)$/.test(entry),
        );
        upstreamTask = line?.split(" ")[1] ?? "";
        return Boolean(line);
      },
      20_000,
      "the upstream task's second status",
    );
    controller.abort();
    const { result } = await call;
    assert.equal(result.ok, false);
    assert.equal(result.metadata.reason, "cancelled");
    await eventually(
      async () => (await files.lines()).includes(`task ${upstreamTask} cancelled`),
      20_000,
      "the upstream server to stop its task",
    );
  });

  it("a 2026-07-28 client without the extension is told to declare it", TIMEOUT, async () => {
    const client = await connectClient("v2@2026-07-28", { stdio: gateway() });
    try {
      await assert.rejects(
        client.callTool("call_tool", { name: "build", arguments: { steps: 1, step_ms: 10 } }),
        /needs the Tasks extension \(io\.modelcontextprotocol\/tasks\)/,
      );
      const quick = await client.callTool("call_tool", {
        name: "quick",
        arguments: { text: "hello" },
      });
      assert.equal(quick.content[0]?.text, "hello");
    } finally {
      await client.close();
    }
  });

  it("a 2025-11-25 client gets the finished result", TIMEOUT, async () => {
    const client = await connectClient("v1", { stdio: gateway() });
    try {
      const result = await client.callTool("call_tool", {
        name: "build",
        arguments: { steps: 2, step_ms: 100 },
      });
      assert.equal(result.content[0]?.text, "built in 2 steps");
    } finally {
      await client.close();
    }
  });
});
