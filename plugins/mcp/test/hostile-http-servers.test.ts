import assert from "node:assert/strict";
import os from "node:os";
import { describe, it } from "node:test";
import { type Agent, createAgent } from "@pseudoclaude/core";
import { type McpServerEntry, MemoryCredentialStore, mcp } from "@pseudoclaude/plugin-mcp";
import { startHttpServer } from "@pseudoclaude/testing/system";
import { fixture, stdioFixture } from "./support/mcp-fixtures.js";

/**
 * Hostile Streamable HTTP servers (plugins/mcp/test/fixtures/hostile-http.ts, by hand, no SDK) next to
 * a healthy stdio server: every failure is a clear diagnostic or call error within its budget,
 * the agent and the other server carry on.
 */
const TIMEOUT = { timeout: 60_000 };

async function withHostileHttp(
  modes: string,
  server: Record<string, unknown>,
  body: (agent: Agent, elapsedMs: number) => Promise<void>,
): Promise<void> {
  const http = await startHttpServer({
    script: fixture("hostile-http"),
    env: { HOSTILE: modes },
  });
  let agent: Agent | undefined;
  try {
    const started = Date.now();
    agent = await createAgent({
      config: false,
      workspace: os.tmpdir(),
      policy: { mode: "bypass" },
      plugins: [
        mcp({
          servers: {
            hostile: { type: "http", url: http.url("/mcp"), ...server } as McpServerEntry,
            healthy: stdioFixture("behaviours"),
          },
          credentials: new MemoryCredentialStore(),
        }),
      ],
    });
    await body(agent, Date.now() - started);
    const echo = await agent.callTool("mcp__healthy__echo", { text: "still here" });
    assert.equal(echo.result.ok, true, `the healthy server still answers (${modes})`);
  } finally {
    await agent?.close();
    await http.stop();
  }
}

function connectFailure(agent: Agent) {
  const failure = agent
    .diagnostics()
    .find((diagnostic) => diagnostic.stage === "connect" && diagnostic.source === "mcp:hostile");
  assert.ok(failure, JSON.stringify(agent.diagnostics()));
  assert.equal(agent.sources().find((s) => s.id === "mcp:hostile")?.status.state, "failed");
  return failure;
}

describe("hostile HTTP servers", () => {
  it("reports a server that answers 500 as a connect failure saying so", TIMEOUT, async () => {
    await withHostileHttp("status_500", {}, async (agent, elapsed) => {
      assert.ok(elapsed < 10_000, `took ${elapsed} ms`);
      assert.match(connectFailure(agent).message, /500/);
    });
  });

  it("reports an HTML error page without pasting the page into the message", TIMEOUT, async () => {
    await withHostileHttp("html", {}, async (agent) => {
      const failure = connectFailure(agent);
      assert.match(failure.message, /502/);
      assert.match(failure.message, /an HTML page "502 Bad Gateway"/);
      assert.doesNotMatch(failure.message, /<p>|<\/?body/, "markup is not pasted");
      assert.ok(failure.message.length < 600, `message of ${failure.message.length} characters`);
    });
  });

  it(
    "gives up on a server that accepts and never answers within the connect budget",
    TIMEOUT,
    async () => {
      await withHostileHttp("silent", { connect_timeout_ms: 1_000 }, async (agent, elapsed) => {
        assert.ok(elapsed < 6_000, `took ${elapsed} ms for a 1 s budget`);
        assert.match(
          connectFailure(agent).message,
          /No MCP handshake within the connect budget of 1000 ms/,
        );
      });
    },
  );

  it("ends a call whose answer never ends within the call's timeout", TIMEOUT, async () => {
    await withHostileHttp("never_ends", { call_timeout_ms: 500 }, async (agent) => {
      const started = Date.now();
      const { result } = await agent.callTool("mcp__hostile__stall", {});
      const elapsed = Date.now() - started;
      assert.equal(result.error?.code, "mcp_call_error");
      assert.equal(result.metadata.reason, "timeout");
      assert.ok(elapsed < 500 + 1_500, `ended after ${elapsed} ms (timeout 500)`);
      const echo = await agent.callTool("mcp__hostile__echo", { text: "after" });
      assert.equal(echo.result.ok, true, JSON.stringify(echo.result.error));
    });
  });

  it(
    "resumes a call's answer stream that the server ended early, with Last-Event-ID",
    TIMEOUT,
    async () => {
      await withHostileHttp("stream_drops", {}, async (agent) => {
        for (let i = 0; i < 3; i++) {
          const { result } = await agent.callTool("mcp__hostile__echo", { text: `resumed ${i}` });
          assert.equal(result.ok, true, JSON.stringify(result.error));
          assert.equal(
            result.content[0]?.type === "text" && result.content[0].text,
            `resumed ${i}`,
          );
        }
      });
    },
  );

  it("follows a call redirected within the server's origin", TIMEOUT, async () => {
    await withHostileHttp("redirects", {}, async (agent) => {
      const { result } = await agent.callTool("mcp__hostile__echo", { text: "moved" });
      assert.equal(result.ok, true, JSON.stringify(result.error));
      assert.equal(result.content[0]?.type === "text" && result.content[0].text, "moved");
    });
  });

  it("hands on a call's progress sent in the same write as its answer", TIMEOUT, async () => {
    await withHostileHttp("", {}, async (agent) => {
      for (let i = 0; i < 3; i++) {
        const seen: number[] = [];
        const { result } = await agent.callTool(
          "mcp__hostile__burst",
          {},
          { onProgress: (progress) => seen.push(progress.progress) },
        );
        assert.equal(result.ok, true, JSON.stringify(result.error));
        assert.deepEqual(seen, [1, 2, 3], "every progress reaches the call, the last one too");
      }
    });
  });

  it("keeps working when the session id changes on every answer", TIMEOUT, async () => {
    await withHostileHttp("session_changes", {}, async (agent) => {
      for (let i = 0; i < 5; i++) {
        const { result } = await agent.callTool("mcp__hostile__echo", { text: `call ${i}` });
        assert.equal(result.ok, true, JSON.stringify(result.error));
      }
    });
  });
});
