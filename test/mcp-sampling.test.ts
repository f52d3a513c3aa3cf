import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { type Agent, textOf } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { eventually, mcpAgent } from "./support/mcp-fixtures.js";

const everything = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);
const server = (sampling: boolean) => ({
  type: "stdio",
  command: process.execPath,
  args: [everything, "stdio"],
  sampling,
});

/** server-everything registers trigger-sampling-request after init, then says list_changed. */
async function samplingTool(agent: Agent): Promise<void> {
  await eventually(
    () => agent.registry.get("mcp__e__trigger-sampling-request") !== undefined,
    10_000,
    "sampling tool",
  );
}

describe("MCP sampling", () => {
  it("is not declared unless the server entry enables it", async () => {
    const agent = await mcpAgent({ e: server(false) });
    try {
      await eventually(
        () => agent.registry.get("mcp__e__trigger-elicitation-request") !== undefined,
        10_000,
        "late tools",
      );
      assert.equal(agent.registry.get("mcp__e__trigger-sampling-request"), undefined);
    } finally {
      await agent.close();
    }
  });

  it("asks for approval and answers with the agent's own provider", async () => {
    const provider = new ScriptedProvider([{ text: "Sampled answer from the scripted model." }]);
    const approvals: string[] = [];
    const agent = await mcpAgent(
      { e: server(true) },
      {
        provider,
        policy: { mode: "bypass" },
        approve: (request) => {
          approvals.push(request.tool.name);
          return "allow";
        },
      },
    );
    try {
      await samplingTool(agent);
      const { result } = await agent.callTool("mcp__e__trigger-sampling-request", {
        prompt: "say hi",
        maxTokens: 20,
      });
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.match(textOf(result.content), /Sampled answer from the scripted model\./);
      assert.deepEqual(approvals, ["mcp__e__sampling"]);
      assert.equal(provider.requests[0]!.system, "You are a helpful test server.");
      assert.deepEqual(provider.requests[0]!.toolNames, [], "sampling offers the model no tools");
    } finally {
      await agent.close();
    }
  });

  it("refuses sampling when nobody can approve it", async () => {
    const provider = new ScriptedProvider([{ text: "must not be used" }]);
    const agent = await mcpAgent({ e: server(true) }, { provider, policy: { mode: "bypass" } });
    try {
      await samplingTool(agent);
      const { result } = await agent.callTool("mcp__e__trigger-sampling-request", { prompt: "x" });
      assert.equal(result.ok, false);
      assert.equal(provider.played, 0);
    } finally {
      await agent.close();
    }
  });
});
