// MCP's two protocol eras over stdio, each against real servers: the 2026-07-28 revision on the
// official v2 server package (both eras by default, 2026-only as @mastra/mcp 2.0 serves), and
// 2025-11-25 on the 1.x SDK. `protocol: auto` asks each server on its own process, so every
// server is spawned once; tools are listed and called, elicitation (an input_required result
// in 2026) is answered, cancellation reaches the server, list_changed is followed.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { type Agent, type ElicitationRequest, textOf } from "@pseudoclaude/core";
import { McpManager } from "@pseudoclaude/plugin-mcp";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { startHttpServer } from "./support/http-server-process.js";
import {
  abortSlowCall,
  elicitingAgent,
  eventually,
  fixture,
  mcpAgent,
  processAlive,
  scratch,
  serverPart,
  startsLogged,
  stdioFixture,
} from "./support/mcp-fixtures.js";

const TIMEOUT = { timeout: 60_000 };

async function withEraAgent(
  servers: Record<string, Record<string, unknown>>,
  body: (
    agent: Agent,
    log: { lines(): Promise<string[]> },
    asked: ElicitationRequest[],
  ) => Promise<void>,
): Promise<void> {
  const log = await scratch();
  const withLog = Object.fromEntries(
    Object.entries(servers).map(([name, entry]) => [
      name,
      { ...entry, env: { ...(entry.env as object), FIXTURE_LOG: log.log } },
    ]),
  );
  const { agent, asked } = await elicitingAgent(withLog);
  try {
    await body(agent, log, asked);
  } finally {
    await agent.close();
    await log.cleanup();
  }
}

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

  it(
    "answers a 2026 server's URL elicitation, sampling and roots requests (input_required) and hands on its progress, as in 2025",
    TIMEOUT,
    async () => {
      const provider = new ScriptedProvider([{ text: "a short summary" }]);
      const approvals: string[] = [];
      const asked: ElicitationRequest[] = [];
      const workspace = await mkdtemp(path.join(os.tmpdir(), "pc-eras-roots-"));
      const agent = await mcpAgent(
        {
          modern: stdioFixture("modern", {
            env: { FIXTURE_MODERN_ONLY: "1" },
            sampling: true,
          }),
        },
        {
          workspace,
          provider,
          policy: { mode: "bypass" },
          approve: (request) => {
            approvals.push(request.tool.name);
            return "allow";
          },
          elicit: async (request) => {
            asked.push(request);
            return { action: "accept" };
          },
        },
      );
      try {
        assert.equal(serverPart(agent, "modern")?.protocolVersion, "2026-07-28");
        const visit = await agent.callTool("mcp__modern__open_page", {});
        assert.equal(textOf(visit.result.content), "visit: accept");
        assert.equal(asked[0]?.mode, "url");
        assert.equal(asked[0]?.url, "https://example.com/sign");
        const summary = await agent.callTool("mcp__modern__summarize", { text: "a long text" });
        assert.equal(summary.result.ok, true, JSON.stringify(summary.result));
        assert.equal(textOf(summary.result.content), "summary: a short summary");
        assert.deepEqual(approvals, ["mcp__modern__sampling"], "sampling asked for approval");
        assert.equal(provider.played, 1);
        const progress: number[] = [];
        const listener = (event: { progress: { progress: number } }) =>
          progress.push(event.progress.progress);
        agent.on("tool-progress", listener);
        const steps = await agent.callTool("mcp__modern__steps", {});
        agent.off("tool-progress", listener);
        assert.equal(textOf(steps.result.content), "3 steps");
        assert.deepEqual(progress, [1, 2, 3], "progress notifications reach tool-progress");
        const roots = await agent.callTool("mcp__modern__roots", {});
        assert.equal(textOf(roots.result.content), pathToFileURL(workspace).href);
      } finally {
        await agent.close();
        await rm(workspace, { recursive: true, force: true });
      }
    },
  );

  for (const protocol of ["auto", "2025-11-25"] as const)
    it(
      `resource templates, completion and the resource and prompt list_changed (protocol ${protocol})`,
      TIMEOUT,
      async () => {
        await withEraAgent({ m: stdioFixture("modern", { protocol }) }, async (agent) => {
          const era = protocol === "auto" ? "2026-07-28" : "2025-11-25";
          assert.equal(serverPart(agent, "m")?.protocolVersion, era);
          const manager = agent.resolve<McpManager>(McpManager);
          const signal = new AbortController().signal;
          const notices: string[] = [];
          manager.onServerNotice((server, notice) => notices.push(`${server} ${notice.kind}`));

          const templates = await manager.listResourceTemplates("m", undefined, signal);
          assert.deepEqual(
            templates.servers[0]?.resourceTemplates.map((template) => template.uriTemplate),
            ["memo://notes/{name}"],
          );
          const read = await agent.callTool("mcp__read_resource_template", {
            server: "m",
            uri_template: "memo://notes/{name}",
            arguments: { name: "alpha" },
          });
          assert.equal(read.result.ok, true, JSON.stringify(read.result.error));
          assert.deepEqual(read.result.content, [
            {
              type: "resource",
              resource: { uri: "memo://notes/alpha", mimeType: "text/plain", text: "note alpha" },
            },
          ]);

          const notes = await manager.complete(
            "m",
            {
              ref: { type: "ref/resource", uri: "memo://notes/{name}" },
              argument: { name: "name", value: "al" },
            },
            signal,
          );
          assert.deepEqual(notes.values, ["alpha", "alpine"]);
          const people = await manager.complete(
            "m",
            { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "A" } },
            signal,
          );
          assert.deepEqual(people.values, ["Ada", "Alan"]);

          await agent.callTool("mcp__m__add_lists", {});
          await eventually(
            () => notices.includes("m resources-changed") && notices.includes("m prompts-changed"),
            10_000,
            `resource and prompt list_changed (${notices.join(", ")})`,
          );
        });
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
