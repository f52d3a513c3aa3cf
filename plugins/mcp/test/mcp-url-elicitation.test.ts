// 2025-11-25 URL elicitation through a refused call: the server answers -32042 naming a page
// the person must finish; the page goes to elicit (url mode), and once the server says it is
// complete (notifications/elicitation/complete) the call is sent again. A declined page ends
// the call with the server's refusal.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ElicitationRequest } from "@pseudoclaude/core";
import { mcpAgent, stdioFixture } from "./support/mcp-fixtures.js";

async function withPageAgent(
  action: "accept" | "decline",
  body: (
    call: () => Promise<{ ok: boolean; text: string; code?: string }>,
    asked: ElicitationRequest[],
  ) => Promise<void>,
): Promise<void> {
  const asked: ElicitationRequest[] = [];
  const agent = await mcpAgent(
    { b: stdioFixture("behaviours") },
    {
      policy: { mode: "bypass" },
      elicit: async (request) => {
        asked.push(request);
        return { action };
      },
    },
  );
  try {
    await body(async () => {
      const { result } = await agent.callTool("mcp__b__needs_page", {});
      const text = result.content.map((block) => ("text" in block ? block.text : "")).join("");
      return { ok: result.ok, text, ...(result.error ? { code: result.error.code } : {}) };
    }, asked);
  } finally {
    await agent.close();
  }
}

describe("MCP URL elicitation required (-32042)", () => {
  it("shows the page, waits for the server to say it is done, and sends the call again", async () => {
    await withPageAgent("accept", async (call, asked) => {
      const result = await call();
      assert.equal(result.ok, true, result.text);
      assert.equal(result.text, "account connected");
      assert.equal(asked.length, 1);
      assert.equal(asked[0]?.mode, "url");
      assert.equal(asked[0]?.url, "https://example.com/connect?state=abc");
      assert.equal(asked[0]?.message, "Connect your example.com account.");
      assert.equal(asked[0]?.source, "mcp:b");
    });
  });

  it("ends the call with the server's refusal when the person declines the page", async () => {
    await withPageAgent("decline", async (call, asked) => {
      const result = await call();
      assert.equal(result.ok, false);
      assert.equal(result.code, "mcp_call_error");
      assert.match(result.text, /-32042/);
      assert.equal(asked.length, 1);
    });
  });
});
