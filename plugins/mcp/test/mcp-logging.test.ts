// A server's log messages (notifications/message, 2025 era) through the real plugin: they are
// diagnostics of stage server_log and `diagnostic` events, `logging.level` is asked of the
// server (logging/setLevel, which the SDK server applies), and a chatty server is cut off.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Diagnostic } from "@pseudoclaude/core";
import { eventually, mcpAgent, stdioFixture } from "./support/mcp-fixtures.js";

const logs = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((diagnostic) => diagnostic.code === "mcp_server_log");

describe("MCP server log messages", () => {
  it("become diagnostics and events with level, logger and data", async () => {
    const agent = await mcpAgent({ b: stdioFixture("behaviours") }, { policy: { mode: "bypass" } });
    const events: Diagnostic[] = [];
    agent.on("diagnostic", (diagnostic) => events.push(diagnostic));
    try {
      const { result } = await agent.callTool("mcp__b__log_burst", {});
      assert.equal(result.ok, true, JSON.stringify(result.error));
      const seen = logs(agent.diagnostics());
      assert.deepEqual(
        seen.map((diagnostic) => [diagnostic.severity, diagnostic.message]),
        [
          ["info", '[debug] fixture: {"round":0,"level":"debug"}'],
          ["info", '[info] fixture: {"round":0,"level":"info"}'],
          ["warning", '[warning] fixture: {"round":0,"level":"warning"}'],
          ["warning", '[error] fixture: {"round":0,"level":"error"}'],
        ],
      );
      assert.equal(seen[0]?.source, "mcp:b");
      assert.equal(seen[0]?.item, "b/fixture");
      assert.deepEqual(seen[3]?.details, { level: "error", logger: "fixture" });
      assert.equal(logs(events).length, 4, "each is a diagnostic event too");
    } finally {
      await agent.close();
    }
  });

  it("asks the server for logging.level, and keeps 200 messages a server", async () => {
    const agent = await mcpAgent(
      { b: stdioFixture("behaviours", { logging: { level: "warning" } }) },
      { policy: { mode: "bypass" } },
    );
    try {
      await agent.callTool("mcp__b__log_burst", { rounds: 120 });
      const seen = logs(agent.diagnostics());
      assert.equal(seen.length, 200, "120 rounds of warning and error, cut at 200");
      assert.ok(
        seen.every((diagnostic) => /^\[(warning|error)\]/.test(diagnostic.message)),
        "debug and info were not sent",
      );
      const dropped = agent.diagnostics().filter((d) => d.code === "mcp_server_log_dropped");
      assert.equal(dropped.length, 1);
      assert.match(dropped[0]!.message, /more than 200 log messages/);
    } finally {
      await agent.close();
    }
  });

  it("asks a 2026-07-28 server per call for logging.level, and hears nothing unasked", async () => {
    const agent = await mcpAgent(
      {
        asked: stdioFixture("modern", {
          env: { FIXTURE_MODERN_ONLY: "1" },
          logging: { level: "warning" },
        }),
        quiet: stdioFixture("modern", { env: { FIXTURE_MODERN_ONLY: "1" } }),
      },
      { policy: { mode: "bypass" } },
    );
    try {
      for (const server of ["asked", "quiet"]) {
        const { result } = await agent.callTool(`mcp__${server}__log_twice`, {});
        assert.equal(result.ok, true, JSON.stringify(result.error));
      }
      await eventually(() => logs(agent.diagnostics()).length > 0, 5_000, "the error log");
      assert.deepEqual(
        logs(agent.diagnostics()).map((diagnostic) => [diagnostic.source, diagnostic.message]),
        [["mcp:asked", '[error] fixture: {"n":2}']],
        "only what the level lets through, only from the server asked",
      );
    } finally {
      await agent.close();
    }
  });
});
