// The MCP plugin over the legacy HTTP+SSE transport against server-everything.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { textOf } from "@pseudoclaude/core";
import { type HttpServerProcess, startHttpServer } from "@pseudoclaude/testing/system";
import { mcpAgent } from "./support/mcp-fixtures.js";
import { sourceStatus } from "./support/mcp-source-status.js";
import { EVERYTHING } from "./support/reference-server-paths.js";

describe("MCP over legacy HTTP+SSE against server-everything", () => {
  let server: HttpServerProcess;

  before(async () => {
    server = await startHttpServer({ script: EVERYTHING, args: ["sse"] });
  });

  after(async () => {
    await server?.stop();
  });

  it("discovers the tools and calls echo over an SSE endpoint", async () => {
    const agent = await mcpAgent(
      { legacy: { type: "sse", url: server.url("/sse") } },
      { policy: { mode: "bypass" }, strict: true },
    );
    try {
      const echo = agent.registry.get("mcp__legacy__echo");
      assert.ok(echo, "echo is registered");
      assert.equal(echo.definition.source, "mcp:legacy");
      assert.match(sourceStatus(agent, "legacy").parts?.[0]?.message ?? "", /, sse\)$/);
      const { result } = await agent.callTool("mcp__legacy__echo", { message: "over sse" });
      assert.equal(result.ok, true, JSON.stringify(result.error));
      assert.equal(textOf(result.content), "Echo: over sse");
    } finally {
      await agent.close();
    }
    assert.equal(server.running(), true);
  });
});
