// Which MCP protocol era is spoken over stdio, against real servers: the 2026-07-28 revision on
// the official v2 server package (both eras by default, 2026-only as @mastra/mcp 2.0 serves), and
// 2025-11-25 on the 1.x SDK. `protocol: auto` asks each server on its own process, so every
// server is spawned once, even when it ends its process, stays silent or starts slowly.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { McpManager } from "@pseudoclaude/plugin-mcp";
import { withEraAgent } from "./support/mcp-era-agent.js";
import {
  abortSlowCall,
  eventually,
  fixture,
  processAlive,
  serverPart,
  startsLogged,
  stdioFixture,
} from "./support/mcp-fixtures.js";

const TIMEOUT = { timeout: 60_000 };

describe("MCP eras over stdio", () => {
  it("speaks 2026-07-28 to a server that serves only it, on one process", TIMEOUT, async () => {
    await withEraAgent(
      { modern: stdioFixture("modern", { env: { FIXTURE_MODERN_ONLY: "1" } }) },
      async (agent, log, asked) => {
        assert.equal(
          serverPart(agent, "modern")?.state,
          "ready",
          JSON.stringify(agent.diagnostics()),
        );
        assert.equal(serverPart(agent, "modern")?.protocolVersion, "2026-07-28");
        assert.match(serverPart(agent, "modern")?.message ?? "", /protocol 2026-07-28/);
        const echo = await agent.callTool("mcp__modern__echo", { text: "hello 2026" });
        assert.deepEqual(echo.result.content, [{ type: "text", text: "hello 2026" }]);

        const confirmed = await agent.callTool("mcp__modern__confirm_action", { action: "deploy" });
        assert.equal(confirmed.result.ok, true, JSON.stringify(confirmed.result));
        assert.deepEqual(confirmed.result.content, [{ type: "text", text: "deploy: done" }]);
        assert.equal(asked.length, 1, "the input_required elicitation reached the person");
        assert.equal(asked[0]?.message, "Really deploy?");
        assert.equal(asked[0]?.source, "mcp:modern");

        await agent.callTool("mcp__modern__add_tool", { name: "late_tool" });
        await eventually(
          () => agent.registry.get("mcp__modern__late_tool") !== undefined,
          10_000,
          "list_changed over subscriptions/listen",
        );

        const cancelled = await abortSlowCall(agent, "mcp__modern__slow", log);
        assert.equal(cancelled.result.ok, false);

        const manager = agent.resolve<McpManager>(McpManager);
        const signal = new AbortController().signal;
        const listed = await manager.listResources("modern", undefined, signal);
        assert.deepEqual(
          listed.servers[0]?.resources.map((resource) => resource.uri),
          ["memo://readme"],
        );
        const read = await manager.readResource("modern", "memo://readme", signal);
        assert.equal(read.contents[0]?.text, "note of the modern era");
        const prompts = await manager.listPrompts("modern", undefined, signal);
        assert.deepEqual(
          prompts.servers[0]?.prompts.map((prompt) => prompt.name),
          ["greet"],
        );
        const prompt = await manager.getPrompt("modern", "greet", { who: "Ada" }, signal);
        assert.match(JSON.stringify(prompt), /Say hello to Ada\./);

        assert.equal(await startsLogged(log), 1, "one process: no probe sibling");
        assert.ok(
          (await log.lines()).every((line) => !line.startsWith("era ") || line === "era modern"),
        );
      },
    );
  });

  it(
    "speaks 2026-07-28 to a server of both eras, and 2025-11-25 when pinned",
    TIMEOUT,
    async () => {
      await withEraAgent(
        {
          auto: stdioFixture("modern"),
          pinned: stdioFixture("modern", { protocol: "2025-11-25" }),
        },
        async (agent, log, asked) => {
          assert.equal(serverPart(agent, "auto")?.protocolVersion, "2026-07-28");
          assert.equal(serverPart(agent, "pinned")?.protocolVersion, "2025-11-25");
          for (const server of ["auto", "pinned"]) {
            const confirmed = await agent.callTool(`mcp__${server}__confirm_action`, {
              action: server,
            });
            assert.deepEqual(
              confirmed.result.content,
              [{ type: "text", text: `${server}: done` }],
              JSON.stringify(confirmed.result),
            );
          }
          assert.equal(asked.length, 2, "elicitation answered in both eras");
          assert.equal(await startsLogged(log), 2, "one process per server");
        },
      );
    },
  );

  it("falls back to 2025-11-25 on the same process for a 1.x server", TIMEOUT, async () => {
    await withEraAgent({ beh: stdioFixture("behaviours") }, async (agent, log) => {
      assert.equal(serverPart(agent, "beh")?.state, "ready");
      assert.equal(await startsLogged(log), 1, "server/discover, then initialize, on one process");
      assert.equal(serverPart(agent, "beh")?.protocolVersion, "2025-11-25");
      const served = await agent.callTool("mcp__beh__pid", {});
      const pid = Number((served.result.content[0] as { text: string }).text);
      assert.ok(await processAlive(pid));
      const echo = await agent.callTool("mcp__beh__echo", { text: "legacy" });
      assert.deepEqual(echo.result.content, [{ type: "text", text: "legacy" }]);
    });
  });

  it(
    "starts a server once more only when it ended its process instead of answering",
    TIMEOUT,
    async () => {
      await withEraAgent(
        { gone: stdioFixture("raw-legacy", { env: { FIXTURE_ON_DISCOVER: "exit" } }) },
        async (agent, log) => {
          assert.equal(
            serverPart(agent, "gone")?.state,
            "ready",
            JSON.stringify(agent.diagnostics()),
          );
          assert.equal(serverPart(agent, "gone")?.protocolVersion, "2025-11-25");
          const echo = await agent.callTool("mcp__gone__echo", { text: "second process" });
          assert.deepEqual(echo.result.content, [{ type: "text", text: "second process" }]);
          assert.equal(
            await startsLogged(log),
            2,
            "the process that ended, and one for initialize",
          );
        },
      );
    },
  );

  it(
    "sends initialize on the same process when server/discover goes unanswered",
    TIMEOUT,
    async () => {
      await withEraAgent(
        {
          silent: stdioFixture("raw-legacy", {
            env: { FIXTURE_ON_DISCOVER: "silent" },
            connect_timeout_ms: 3_000,
          }),
        },
        async (agent, log) => {
          assert.equal(
            serverPart(agent, "silent")?.state,
            "ready",
            JSON.stringify(agent.diagnostics()),
          );
          assert.equal(serverPart(agent, "silent")?.protocolVersion, "2025-11-25");
          assert.equal(await startsLogged(log), 1);
          assert.deepEqual(
            (await log.lines()).filter((line) => line === "discover"),
            ["discover"],
          );
        },
      );
    },
  );

  it(
    "reaches a 2026-only server that started too slowly to answer server/discover in time, on its one process",
    TIMEOUT,
    async () => {
      // The probe waits 3 s; these servers read nothing for 3.5 s. Under auto the initialize
      // that followed is refused naming 2026-07-28 and the late answer to server/discover is
      // taken; pinned to 2026-07-28 the probe waits the whole connect budget.
      const slow = (extra: Record<string, unknown>) =>
        stdioFixture("modern", {
          env: { FIXTURE_MODERN_ONLY: "1", FIXTURE_START_DELAY_MS: "3500" },
          connect_timeout_ms: 20_000,
          ...extra,
        });
      await withEraAgent(
        { slow: slow({}), pinned: slow({ protocol: "2026-07-28" }) },
        async (agent, log) => {
          for (const server of ["slow", "pinned"]) {
            assert.equal(
              serverPart(agent, server)?.state,
              "ready",
              JSON.stringify(agent.diagnostics()),
            );
            assert.equal(serverPart(agent, server)?.protocolVersion, "2026-07-28");
            const echo = await agent.callTool(`mcp__${server}__echo`, { text: "late but there" });
            assert.deepEqual(echo.result.content, [{ type: "text", text: "late but there" }]);
          }
          assert.equal(await startsLogged(log), 2, "one process each");
        },
      );
    },
  );

  it("says why when a server pinned to 2026-07-28 does not speak it", TIMEOUT, async () => {
    await withEraAgent(
      {
        old: {
          type: "stdio",
          command: process.execPath,
          args: [fixture("behaviours")],
          protocol: "2026-07-28",
        },
      },
      async (agent) => {
        assert.notEqual(serverPart(agent, "old")?.state, "ready");
        const message = agent
          .diagnostics()
          .map((diagnostic) => diagnostic.message)
          .join("\n");
        assert.match(message, /pinned to protocol 2026-07-28 but does not speak it/);
      },
    );
  });
});
