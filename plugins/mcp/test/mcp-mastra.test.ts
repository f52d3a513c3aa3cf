// Interop with a real @mastra/mcp 2.0 MCPServer (test/interop/mastra/server.mjs), which serves
// MCP 2026-07-28 only: a 2025-era client cannot reach it at all. Our client, with the default
// `protocol: auto`, reaches it over stdio (on one process) and over Streamable HTTP; tools are
// listed and called, Mastra's suspend/resume elicitation is answered by the person, a tool
// added at runtime (`toolActions.add`) arrives through subscriptions/listen, and an aborted
// call's cancellation reaches the tool's abort signal.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { Agent, ElicitationRequest } from "@pseudoclaude/core";
import { startHttpServer } from "@pseudoclaude/testing/system";
import { mastraServerScript } from "./support/mastra-package.js";
import {
  abortSlowCall,
  elicitingAgent,
  eventually,
  scratch,
  serverPart,
  startsLogged,
} from "./support/mcp-fixtures.js";

const TIMEOUT = { timeout: 60_000 };

/** What every transport must do against the Mastra server named `mastra`. */
async function exercise(
  agent: Agent,
  asked: ElicitationRequest[],
  log: { lines(): Promise<string[]> },
): Promise<void> {
  assert.equal(serverPart(agent, "mastra")?.state, "ready", JSON.stringify(agent.diagnostics()));
  assert.equal(serverPart(agent, "mastra")?.protocolVersion, "2026-07-28");
  const listed = agent.registry
    .list()
    .map((tool) => tool.definition.name)
    .filter((name) => name.startsWith("mcp__mastra__"))
    .sort();
  assert.deepEqual(listed, [
    "mcp__mastra__add_tool",
    "mcp__mastra__confirm_action",
    "mcp__mastra__echo",
    "mcp__mastra__pid",
    "mcp__mastra__slow",
  ]);

  const echo = await agent.callTool("mcp__mastra__echo", { text: "hello mastra" });
  assert.deepEqual(echo.result.content, [{ type: "text", text: "hello mastra" }]);

  const confirmed = await agent.callTool("mcp__mastra__confirm_action", { action: "deploy" });
  assert.equal(confirmed.result.ok, true, JSON.stringify(confirmed.result));
  assert.deepEqual(confirmed.result.content, [{ type: "text", text: "deploy: done" }]);
  assert.equal(asked.length, 1, "the suspension reached the person as one elicitation");
  assert.equal(asked[0]?.message, "Really deploy?");
  assert.equal(asked[0]?.source, "mcp:mastra");

  const added = await agent.callTool("mcp__mastra__add_tool", { name: "late_tool" });
  assert.deepEqual(added.result.content, [{ type: "text", text: "registered late_tool" }]);
  await eventually(
    () => agent.registry.get("mcp__mastra__late_tool") !== undefined,
    10_000,
    "list_changed over subscriptions/listen",
  );
  const late = await agent.callTool("mcp__mastra__late_tool", {});
  assert.deepEqual(late.result.content, [{ type: "text", text: "late_tool" }]);

  const cancelled = await abortSlowCall(agent, "mcp__mastra__slow", log);
  assert.equal(cancelled.result.ok, false);
}

describe("interop: a @mastra/mcp 2.0 MCPServer (2026-07-28 only)", () => {
  let script = "";
  // A fresh clone installs the server's own package first (~10 s with npm's cache).
  before(
    async () => {
      script = await mastraServerScript();
    },
    { timeout: 300_000 },
  );

  it("is reached over stdio on one process", TIMEOUT, async () => {
    const log = await scratch();
    const { agent, asked } = await elicitingAgent({
      mastra: {
        type: "stdio",
        command: process.execPath,
        args: [script],
        env: { MASTRA_TRANSPORT: "stdio", FIXTURE_LOG: log.log },
      },
    });
    try {
      await exercise(agent, asked, log);
      assert.equal(await startsLogged(log), 1, "server/discover on the one process, no probe");
    } finally {
      await agent.close();
      await log.cleanup();
    }
  });

  it("is reached over Streamable HTTP", TIMEOUT, async () => {
    const log = await scratch();
    const server = await startHttpServer({
      script,
      env: { MASTRA_TRANSPORT: "http", FIXTURE_LOG: log.log },
    });
    const { agent, asked } = await elicitingAgent({
      mastra: { type: "http", url: server.url("/mcp") },
    });
    try {
      await exercise(agent, asked, log);
      const methods = await log.lines();
      assert.ok(methods.includes("POST server/discover"), methods.join());
      assert.ok(methods.includes("POST tools/call"), "2026 requests carry Mcp-Method");
      assert.ok(!methods.some((line) => line.includes("initialize")), "no initialize was sent");
    } finally {
      await agent.close();
      await server.stop();
      await log.cleanup();
    }
  });
});
