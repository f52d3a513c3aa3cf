import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import type { ToolProgress } from "@pseudoclaude/core/plugin";
import {
  eventually,
  mcpAgent,
  processAlive,
  scratch,
  stdioFixture,
} from "./support/mcp-fixtures.js";

const bypass = { policy: { mode: "bypass" as const } };

describe("calling remote tools", () => {
  it("keeps the stdio process alive long after a short connect budget", async () => {
    const agent = await mcpAgent(
      { b: stdioFixture("behaviours", { connect_timeout_ms: 2_000 }) },
      bypass,
    );
    try {
      // Well past the budget: a client that ties the process to the connect budget's context would
      // have killed it by now.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const { result } = await agent.callTool("mcp__b__echo", { text: "late" });
      assert.equal(result.ok, true);
      assert.deepEqual(result.content, [{ type: "text", text: "late" }]);
    } finally {
      await agent.close();
    }
  });

  it("refuses arguments that are not an object or break the schema, sending nothing", async () => {
    const log = await scratch();
    const agent = await mcpAgent(
      { b: stdioFixture("behaviours", { env: { FIXTURE_LOG: log.log } }) },
      bypass,
    );
    try {
      for (const bad of [[1], "text", null, { text: 5 }, {}]) {
        const { result } = await agent.callTool("mcp__b__echo", bad);
        assert.equal(result.error?.code, "invalid_arguments", JSON.stringify(bad));
      }
      const schemaError = await agent.callTool("mcp__b__echo", { text: 5 });
      assert.match(schemaError.result.error!.message, /text: must be string/);
      const missing = await agent.callTool("mcp__b__echo", {});
      assert.match(missing.result.error!.message, /must have required property 'text' \(text\)/);
      assert.ok(
        !(await log.lines()).some((line) => line.startsWith("call")),
        "the server saw no call",
      );
    } finally {
      await agent.close();
      await log.cleanup();
    }
  });

  it("separates a tool's own error (mcp_tool_error) from a failed call (mcp_call_error)", async () => {
    const agent = await mcpAgent({ b: stdioFixture("behaviours") }, bypass);
    try {
      const failed = await agent.callTool("mcp__b__fails", {});
      assert.deepEqual(failed.result.error, {
        code: "mcp_tool_error",
        message: "the database is locked",
      });
    } finally {
      await agent.close();
    }
  });

  it("times out with one effective timeout, reports it, and sends notifications/cancelled", async () => {
    const log = await scratch();
    const agent = await mcpAgent(
      { b: stdioFixture("behaviours", { call_timeout_ms: 300, env: { FIXTURE_LOG: log.log } }) },
      bypass,
    );
    try {
      const { result } = await agent.callTool("mcp__b__hang", {});
      assert.equal(result.error?.code, "mcp_call_error");
      assert.equal(result.metadata.reason, "timeout");
      assert.equal(result.metadata.timeout_ms, 300);
      assert.equal(result.metadata.timeout_source, "tool");
      await eventually(
        async () => (await log.lines()).some((line) => line.startsWith("cancelled hang")),
        3_000,
        "server saw cancellation",
      );
      const echo = await agent.callTool(
        "mcp__b__echo",
        { text: "still alive" },
        { timeoutMs: 10_000 },
      );
      assert.equal(echo.result.ok, true, "the session survives a timed-out call");
    } finally {
      await agent.close();
      await log.cleanup();
    }
  });

  it("lets a per-call timeout override the server's call_timeout_ms", async () => {
    const agent = await mcpAgent(
      { b: stdioFixture("behaviours", { call_timeout_ms: 60_000 }) },
      bypass,
    );
    try {
      const { result } = await agent.callTool("mcp__b__hang", {}, { timeoutMs: 150 });
      assert.equal(result.metadata.timeout_ms, 150);
      assert.equal(result.metadata.timeout_source, "call");
      assert.equal(result.metadata.reason, "timeout");
    } finally {
      await agent.close();
    }
  });

  it("cancels on abort and the server sees the cancellation", async () => {
    const log = await scratch();
    const agent = await mcpAgent(
      { b: stdioFixture("behaviours", { env: { FIXTURE_LOG: log.log } }) },
      bypass,
    );
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const { result } = await agent.callTool("mcp__b__hang", {}, { signal: controller.signal });
      assert.equal(result.error?.code, "mcp_call_error");
      assert.equal(result.metadata.reason, "cancelled");
      await eventually(
        async () => (await log.lines()).some((line) => line.startsWith("cancelled hang")),
        3_000,
        "server saw cancellation",
      );
    } finally {
      await agent.close();
      await log.cleanup();
    }
  });

  it("turns progress notifications into progress events", async () => {
    const agent = await mcpAgent({ b: stdioFixture("behaviours") }, bypass);
    const seen: ToolProgress[] = [];
    agent.on("tool-progress", ({ progress }) => seen.push(progress));
    try {
      const { result } = await agent.callTool("mcp__b__progress", {});
      assert.equal(result.ok, true);
      assert.deepEqual(seen, [
        { progress: 1, total: 3, message: "step 1" },
        { progress: 2, total: 3, message: "step 2" },
        { progress: 3, total: 3, message: "step 3" },
      ]);
    } finally {
      await agent.close();
    }
  });

  it("carries every content kind and structured content", async () => {
    const agent = await mcpAgent({ b: stdioFixture("behaviours") }, bypass);
    try {
      const { result } = await agent.callTool("mcp__b__all_content", {});
      assert.deepEqual(
        result.content.map((block) => block.type),
        ["text", "image", "audio", "resource_link", "resource", "resource"],
      );
      assert.deepEqual(result.structured, { kinds: 6 });
      const structured = await agent.callTool("mcp__b__structured", {});
      assert.deepEqual(structured.result.structured, { n: 42 });
    } finally {
      await agent.close();
    }
  });

  it("keeps local metadata when the server's _meta uses the same keys", async () => {
    const agent = await mcpAgent({ b: stdioFixture("behaviours") }, bypass);
    try {
      const { result } = await agent.callTool("mcp__b__meta_clash", {});
      assert.equal(result.metadata.server, "b");
      assert.equal(result.metadata.remote_tool, "meta_clash");
      assert.equal(result.metadata.tool, "mcp__b__meta_clash");
      assert.notEqual(result.metadata.duration_ms, -1);
      assert.notEqual(result.metadata.timeout_ms, 1);
      assert.deepEqual(result.metadata.remote_meta, {
        server: "evil",
        remote_tool: "forged",
        duration_ms: -1,
        timeout_ms: 1,
        tool: "forged",
        trace: "abc",
      });
    } finally {
      await agent.close();
    }
  });

  it("truncates output beyond max_output_chars with a note", async () => {
    const agent = await mcpAgent(
      { b: stdioFixture("behaviours", { max_output_chars: 1_000 }) },
      bypass,
    );
    try {
      const { result } = await agent.callTool("mcp__b__huge", { chars: 50_000 });
      assert.equal(result.ok, true);
      assert.equal((result.content[0] as { text: string }).text.length, 1_000);
      assert.match(
        (result.content[1] as { text: string }).text,
        /showing 1000 of 50000 characters/,
      );
      assert.equal(result.metadata.truncated, true);
    } finally {
      await agent.close();
    }
  });
});

describe("large results", () => {
  it("takes a result far over the SDK's 10 MB read buffer and cuts it for the model", async () => {
    const agent = await mcpAgent({ b: stdioFixture("behaviours") }, bypass);
    try {
      const { result } = await agent.callTool("mcp__b__huge", { chars: 12_000_000 });
      assert.equal(result.ok, true, JSON.stringify(result.error));
      assert.equal(result.metadata.original_chars, 12_000_000);
      assert.equal(result.metadata.truncated, true);
    } finally {
      await agent.close();
    }
  });
});

describe("servers that die", () => {
  it("fails the call in flight with mcp_call_error and reconnects on the next use", async () => {
    const log = await scratch();
    const agent = await mcpAgent(
      { b: stdioFixture("behaviours", { env: { FIXTURE_LOG: log.log } }) },
      bypass,
    );
    try {
      const firstPid = await pidOf(agent);
      const crash = await agent.callTool("mcp__b__crash", {});
      assert.equal(crash.result.error?.code, "mcp_call_error");
      assert.equal(crash.result.metadata.reason, "session");
      await eventually(async () => !(await processAlive(firstPid)), 3_000, "old server gone");
      const secondPid = await pidOf(agent);
      assert.notEqual(secondPid, firstPid, "a new server process answers");
      assert.ok(agent.diagnostics().some((d) => d.code === "server_disconnected"));
      assert.ok(agent.diagnostics().some((d) => d.code === "reconnected"));
    } finally {
      await agent.close();
      await log.cleanup();
    }
  });

  it("answers at once, without hanging, while a dead server cannot be restarted, then recovers after backoff", async () => {
    const work = await scratch();
    const refuse = path.join(work.dir, "refuse");
    const agent = await mcpAgent(
      {
        b: stdioFixture("behaviours", {
          env: { FIXTURE_REFUSE_FILE: refuse, FIXTURE_LOG: work.log },
        }),
      },
      { ...bypass, mcp: { reconnectBackoff: { initialMs: 1_500, maxMs: 1_500 } } },
    );
    try {
      await writeFile(refuse, "x");
      await agent.callTool("mcp__b__crash", {});
      const failedReconnect = await agent.callTool("mcp__b__echo", { text: "a" });
      assert.equal(failedReconnect.result.error?.code, "mcp_call_error");
      assert.match(
        failedReconnect.result.error!.message,
        /Reconnecting to MCP server "b" failed: .*exited with code 5/s,
      );
      const starts = (await work.lines()).filter((line) => line.startsWith("start")).length;
      const duringBackoff = await agent.callTool("mcp__b__echo", { text: "b" });
      assert.match(duringBackoff.result.error!.message, /next reconnect attempt in [12] s/);
      assert.equal(
        (await work.lines()).filter((line) => line.startsWith("start")).length,
        starts,
        "no spawn during backoff",
      );
      await rm(refuse);
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      const recovered = await agent.callTool("mcp__b__echo", { text: "c" });
      assert.equal(recovered.result.ok, true);
    } finally {
      await agent.close();
      await work.cleanup();
    }
  });
});

async function pidOf(agent: Awaited<ReturnType<typeof mcpAgent>>): Promise<number> {
  const { result } = await agent.callTool("mcp__b__pid", {});
  const block = result.content[0];
  assert.equal(block?.type, "text");
  return Number((block as { text: string }).text);
}

describe("MCP Apps", () => {
  it("declares the extension only when a host that renders app views is attached", async () => {
    const declared = async (appHost: { mimeTypes?: string[] } | undefined) => {
      const agent = await mcpAgent(
        { b: stdioFixture("behaviours") },
        { policy: { mode: "bypass" }, mcp: appHost ? { appHost } : {} },
      );
      try {
        const { result } = await agent.callTool("mcp__b__declared_caps", {});
        const block = result.content[0] as { text: string };
        return JSON.parse(block.text) as { extensions?: Record<string, unknown> };
      } finally {
        await agent.close();
      }
    };
    assert.equal((await declared(undefined)).extensions, undefined, "a terminal shows no views");
    assert.deepEqual((await declared({})).extensions, {
      "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] },
    });
  });
});
