// Long-running upstream tools through the gateway as tasks: a 2025-11-25 upstream server whose
// tools run as MCP tasks (plugins/mcp/test/fixtures/tasks.ts) behind `serve --mcp`, and as the client
// our own MCP plugin in an agent, speaking 2026-07-28 with the Tasks extension (the official
// Tasks library beneath). A task outlives the client's call timeout, a tool error stays a tool
// error, and a cancel reaches the upstream server as tasks/cancel. Clients without the
// extension run the same tools to the end, or are told to declare it.
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

describe("gateway tasks (2026-07-28 Tasks extension) over an upstream server's tasks", () => {
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
    workspace = await createTempWorkspace("pc-gateway-tasks-");
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

  it(
    "a task that runs past the client's call timeout completes with its result",
    TIMEOUT,
    async () => {
      const { result } = await agent.callTool("mcp__gw__build", { steps: 3, step_ms: 600 });
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(text(result), "built in 3 steps");
      assert.ok((result.metadata.duration_ms as number) >= 1_800, "it ran past the 1 s timeout");
      // The client waited for the gateway's task; the gateway's call waited for the server's.
      assert.match(String(result.metadata.task_id), /^[0-9a-f-]{36}$/);
      const created = (await files.lines()).filter((line) => line.endsWith("created by build"));
      assert.equal(created.length, 1, "one upstream task");
    },
  );

  it("a tool error in a task is the tool's error, in its own words", TIMEOUT, async () => {
    const { result } = await agent.callTool("mcp__gw__failing_job", {});
    assert.equal(result.ok, false);
    assert.equal(result.error?.code, "mcp_tool_error");
    assert.match(text(result), /the job broke at step 1/);
  });

  it("cancelling the client's call cancels the upstream server's task", TIMEOUT, async () => {
    const before = new Set(await files.lines());
    const controller = new AbortController();
    const call = agent.callTool("mcp__gw__forever", {}, { signal: controller.signal });
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

  it(
    "a 2025-11-25 client gets the finished result, whatever the tool's task support",
    TIMEOUT,
    async () => {
      const client = await connectClient("v1", { stdio: gateway() });
      try {
        const result = await client.callTool("build", { steps: 2, step_ms: 100 });
        assert.equal(result.content[0]?.text, "built in 2 steps");
      } finally {
        await client.close();
      }
    },
  );

  it("a 2026-07-28 client without the extension is told to declare it", TIMEOUT, async () => {
    const client = await connectClient("v2@2026-07-28", { stdio: gateway() });
    try {
      await assert.rejects(
        client.callTool("build", { steps: 1, step_ms: 10 }),
        /needs the Tasks extension \(io\.modelcontextprotocol\/tasks\)/,
      );
      // A tool that only may run as a task runs to the end for it.
      const quick = await client.callTool("quick", { text: "hello" });
      assert.equal(quick.content[0]?.text, "hello");
    } finally {
      await client.close();
    }
  });
});
