// The 2026-07-28 MCP revision over Streamable HTTP against the official v2 server package: tools,
// elicitation, list_changed, cancellation and resources without initialize, and lists listed
// again when their ttlMs runs out.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { McpManager } from "@pseudoclaude/plugin-mcp";
import { startHttpServer } from "@pseudoclaude/testing/system";
import {
  abortSlowCall,
  elicitingAgent,
  eventually,
  fixture,
  mcpAgent,
  scratch,
  serverPart,
} from "./support/mcp-fixtures.js";

const TIMEOUT = { timeout: 60_000 };

describe("MCP eras over Streamable HTTP", () => {
  for (const modernOnly of [true, false])
    it(
      `speaks 2026-07-28 to a v2 server ${modernOnly ? "that serves only it" : "of both eras"}: tools, elicitation, list_changed, cancellation`,
      TIMEOUT,
      async () => {
        const log = await scratch();
        const server = await startHttpServer({
          script: fixture("modern-http"),
          env: { FIXTURE_LOG: log.log, ...(modernOnly ? { FIXTURE_MODERN_ONLY: "1" } : {}) },
        });
        // The server is stopped even when the agent cannot be made: it would hold the run open.
        const { agent, asked } = await elicitingAgent({
          web: { type: "http", url: server.url("/mcp") },
        }).catch(async (error: unknown) => {
          await server.stop();
          await log.cleanup();
          throw error;
        });
        try {
          assert.equal(
            serverPart(agent, "web")?.state,
            "ready",
            JSON.stringify(agent.diagnostics()),
          );
          assert.equal(serverPart(agent, "web")?.protocolVersion, "2026-07-28");
          const echo = await agent.callTool("mcp__web__echo", { text: "over http" });
          assert.deepEqual(echo.result.content, [{ type: "text", text: "over http" }]);
          const confirmed = await agent.callTool("mcp__web__confirm_action", { action: "ship" });
          assert.deepEqual(confirmed.result.content, [{ type: "text", text: "ship: done" }]);
          assert.equal(asked[0]?.message, "Really ship?");

          await agent.callTool("mcp__web__add_tool", { name: "web_late" });
          await eventually(
            () => agent.registry.get("mcp__web__web_late") !== undefined,
            10_000,
            "list_changed over subscriptions/listen",
          );

          const cancelled = await abortSlowCall(agent, "mcp__web__slow", log);
          assert.equal(cancelled.result.ok, false);
          const manager = agent.resolve<McpManager>(McpManager);
          const read = await manager.readResource(
            "web",
            "memo://readme",
            new AbortController().signal,
          );
          assert.equal(read.contents[0]?.text, "note of the modern era");
          const lines = await log.lines();
          assert.ok(!lines.some((line) => line.includes("initialize")), "no initialize was sent");
          assert.ok(lines.includes("POST resources/read"), "resources/read over 2026 HTTP");
          assert.ok(
            lines.some((line) => line === "POST tools/call"),
            "2026 requests carry Mcp-Method",
          );
        } finally {
          await agent.close();
          await server.stop();
          await log.cleanup();
        }
      },
    );

  it(
    "lists the tools again when a 2026 list's ttlMs runs out, and not before, without list_changed",
    TIMEOUT,
    async () => {
      const servers = await Promise.all(
        ["1000", "0"].map((ttl) =>
          startHttpServer({
            script: fixture("modern-http"),
            env: {
              FIXTURE_MODERN_ONLY: "1",
              FIXTURE_SILENT_CHANGES: "1",
              FIXTURE_TOOLS_TTL_MS: ttl,
            },
          }),
        ),
      );
      // Stopped whatever happens from here: a server left running would hold the test run open.
      try {
        const agent = await mcpAgent(
          {
            fresh: { type: "http", url: servers[0]!.url("/mcp") },
            kept: { type: "http", url: servers[1]!.url("/mcp") },
          },
          { policy: { mode: "bypass" } },
        );
        try {
          for (const name of ["fresh", "kept"])
            await agent.callTool(`mcp__${name}__add_tool`, { name: "late" });
          assert.equal(agent.registry.get("mcp__fresh__late"), undefined, "no list_changed sent");
          await eventually(
            () => agent.registry.get("mcp__fresh__late") !== undefined,
            10_000,
            "the list listed again after its ttlMs",
          );
          // ttlMs 0 promises nothing: that list is kept, not asked for again and again.
          assert.equal(agent.registry.get("mcp__kept__late"), undefined);
        } finally {
          await agent.close();
        }
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    },
  );
});
