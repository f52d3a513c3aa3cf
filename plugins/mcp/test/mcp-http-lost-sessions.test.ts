// The MCP plugin over HTTP when the server forgets a session: a new session is started and the
// call sent again, once.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { textOf } from "@pseudoclaude/core";
import { startHttpServer } from "@pseudoclaude/testing/system";
import { fixture, mcpAgent, scratch } from "./support/mcp-fixtures.js";

describe("HTTP sessions the server lost", () => {
  for (const status of [404, 400]) {
    it(`starts a new session and sends the call again when the server answers ${status} for a lost session`, async () => {
      const log = await scratch();
      const server = await startHttpServer({
        script: fixture("http-sessions"),
        env: { FIXTURE_LOG: log.log, FIXTURE_UNKNOWN_SESSION_STATUS: String(status) },
      });
      const agent = await mcpAgent(
        { s: { type: "http", url: server.url("/mcp") } },
        { policy: { mode: "bypass" } },
      );
      try {
        assert.equal(
          textOf((await agent.callTool("mcp__s__echo", { text: "one" })).result.content),
          "one",
        );
        await agent.callTool("mcp__s__forget", {});
        await new Promise((resolve) => setTimeout(resolve, 50));
        const after = await agent.callTool("mcp__s__echo", { text: "two" });
        assert.equal(after.result.ok, true, JSON.stringify(after.result));
        assert.equal(textOf(after.result.content), "two");
        const lines = await log.lines();
        assert.equal(lines.filter((line) => line === "initialize").length, 2, lines.join(", "));
        assert.deepEqual(
          lines.filter((line) => line.startsWith("call")),
          ["call echo", "call forget", "call echo"],
          "the lost call never ran, the resent one ran once",
        );
        assert.ok(agent.diagnostics().some((d) => d.code === "reconnected"));
      } finally {
        await agent.close();
        await server.stop();
        await log.cleanup();
      }
    });
  }
});
