import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { textOf } from "@pseudoclaude/core";
import { FIXTURE_ERAS, mcpAgent, serverPart, stdioFixture } from "./support/mcp-fixtures.js";

describe("connecting to MCP servers", () => {
  // The process ends before either era's opening is answered: auto and each pinned era alike.
  for (const protocol of ["auto", "2026-07-28", "2025-11-25"])
    it(`fails fast with the exit code and the last stderr lines when a server exits before the handshake (protocol ${protocol})`, async () => {
      const started = Date.now();
      const agent = await mcpAgent({
        early: stdioFixture("exit-early", { connect_timeout_ms: 30_000, protocol }),
        ok: stdioFixture("behaviours"),
      });
      const elapsed = Date.now() - started;
      try {
        // A hang guard, not a benchmark: the budget is 30 s, an early exit must not wait for it.
        assert.ok(elapsed < 10_000, `took ${elapsed} ms`);
        const diagnostic = agent.diagnostics().find((d) => d.code === "connect_failed");
        assert.equal(diagnostic?.source, "mcp:early");
        assert.equal(diagnostic?.stage, "connect");
        assert.match(diagnostic!.message, /exited with code 3 before the MCP handshake/);
        assert.match(diagnostic!.message, /fatal: missing API key/);
        assert.doesNotMatch(diagnostic!.message, /boot line 1\n/, "only the tail is shown");
        assert.ok(agent.registry.get("mcp__ok__echo"), "the other server is unaffected");
        const early = agent.sources().find((s) => s.id === "mcp:early")!;
        assert.equal(early.status.state, "failed");
        assert.deepEqual(early.status.stats, {
          configured: 1,
          connected: 0,
          discovered: 0,
          adapted: 0,
          filtered: 0,
          registered: 0,
        });
      } finally {
        await agent.close();
      }
    });

  it("reports a command that does not exist", async () => {
    const agent = await mcpAgent({ ghost: { type: "stdio", command: "/nonexistent/mcp-server" } });
    try {
      assert.match(
        agent.diagnostics().find((d) => d.code === "connect_failed")!.message,
        /command not found/,
      );
    } finally {
      await agent.close();
    }
  });

  for (const era of FIXTURE_ERAS)
    it(`connects through a flood of stderr output (${era.version})`, async () => {
      const agent = await mcpAgent(
        { flood: stdioFixture("stderr-flood", { env: { ...era.env, FIXTURE_FLOOD_MB: "8" } }) },
        { policy: { mode: "bypass" } },
      );
      try {
        assert.equal(serverPart(agent, "flood")?.protocolVersion, era.version);
        const { result } = await agent.callTool("mcp__flood__ping", {});
        assert.deepEqual(result.content, [{ type: "text", text: "pong" }]);
      } finally {
        await agent.close();
      }
    });

  it("does not let a slow server hold back a fast one", async () => {
    const agent = await mcpAgent({
      slow: stdioFixture("slow-connect", { env: { FIXTURE_DELAY_MS: "1500" } }),
      fast: stdioFixture("behaviours"),
    });
    try {
      // Both connected; the order of registration shows the fast one did not wait.
      assert.ok(agent.registry.get("mcp__slow__slow_tool"));
      const names = agent.registry.list().map((tool) => tool.definition.name);
      assert.ok(
        names.indexOf("mcp__fast__echo") < names.indexOf("mcp__slow__slow_tool"),
        names.join(),
      );
    } finally {
      await agent.close();
    }
  });

  it("gives up on a server that misses its connect budget and keeps the others", async () => {
    const agent = await mcpAgent({
      slow: stdioFixture("slow-connect", {
        env: { FIXTURE_DELAY_MS: "5000" },
        connect_timeout_ms: 300,
      }),
      fast: stdioFixture("behaviours"),
    });
    try {
      const diagnostic = agent.diagnostics().find((d) => d.source === "mcp:slow");
      assert.match(diagnostic!.message, /within the connect budget of 300 ms/);
      assert.ok(agent.registry.get("mcp__fast__echo"));
    } finally {
      await agent.close();
    }
  });

  it("throws in strict mode when a server cannot connect", async () => {
    await assert.rejects(
      mcpAgent({ early: stdioFixture("exit-early") }, { strict: true }),
      /exited with code 3/,
    );
  });
});

describe("client features", () => {
  it("passes elicitation to the agent's callback, and offers none when there is no callback", async () => {
    const asked: string[] = [];
    const withCallback = await mcpAgent(
      { b: stdioFixture("behaviours") },
      {
        policy: { mode: "bypass" },
        elicit: async (request) => {
          asked.push(`${request.source}: ${request.message}`);
          return { action: "accept", content: { name: "Ada" } };
        },
      },
    );
    try {
      const { result } = await withCallback.callTool("mcp__b__ask_user", {});
      assert.deepEqual(result.content, [
        { type: "text", text: 'elicitation accept {"name":"Ada"}' },
      ]);
      assert.deepEqual(asked, ["mcp:b: What is your name?"]);
    } finally {
      await withCallback.close();
    }
    const without = await mcpAgent(
      { b: stdioFixture("behaviours") },
      { policy: { mode: "bypass" } },
    );
    try {
      // The server is told the client cannot elicit, and its SDK refuses to ask.
      const { result } = await without.callTool("mcp__b__ask_user", {});
      assert.equal(result.ok, false);
      assert.match(textOf(result.content), /Client does not support form elicitation/);
    } finally {
      await without.close();
    }
  });

  it("shows URL-mode elicitation to the callback and declines URLs that are not web pages", async () => {
    const seen: Array<{ mode?: string | undefined; url?: string | undefined }> = [];
    const agent = await mcpAgent(
      { b: stdioFixture("behaviours") },
      {
        policy: { mode: "bypass" },
        elicit: async (request) => {
          seen.push({ mode: request.mode, url: request.url });
          return { action: "accept" };
        },
      },
    );
    try {
      const web = await agent.callTool("mcp__b__ask_url", { url: "https://example.com/login" });
      assert.deepEqual(web.result.content, [{ type: "text", text: "url elicitation accept" }]);
      const script = await agent.callTool("mcp__b__ask_url", { url: "javascript:alert(1)" });
      assert.deepEqual(script.result.content, [{ type: "text", text: "url elicitation decline" }]);
      assert.deepEqual(seen, [{ mode: "url", url: "https://example.com/login" }]);
    } finally {
      await agent.close();
    }
  });

  it("puts a server's instructions into the system prompt, attributed and capped", async () => {
    const agent = await mcpAgent(
      {
        b: stdioFixture("behaviours", {
          env: { FIXTURE_INSTRUCTIONS: `Always call echo first. ${"z".repeat(300)}` },
        }),
      },
      { mcp: { instructionsMaxChars: 100 } },
    );
    try {
      const prompt = agent.systemPrompt();
      assert.match(
        prompt,
        /## Instructions from MCP server "b"\n\(from mcp:b\)\n\nAlways call echo first\./,
      );
      assert.match(prompt, /more characters cut/);
    } finally {
      await agent.close();
    }
  });

  it("leaves instructions out when the server entry says instructions: false", async () => {
    const agent = await mcpAgent({
      b: stdioFixture("behaviours", {
        instructions: false,
        env: { FIXTURE_INSTRUCTIONS: "secret plan" },
      }),
    });
    try {
      assert.doesNotMatch(agent.systemPrompt(), /secret plan/);
    } finally {
      await agent.close();
    }
  });
});
