import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { type Agent, textOf } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { eventually, mcpAgent, stdioFixture } from "./support/mcp-fixtures.js";

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
        () => agent.registry.get("mcp__e__get-roots-list") !== undefined,
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

  it("offers the model the server's tools, and gives its calls back as tool_use (2025-11-25)", async () => {
    const provider = new ScriptedProvider([
      { tool_calls: [{ name: "get_weather", arguments: { city: "Lyon" } }] },
      { text: "It is sunny in Lyon." },
    ]);
    const agent = await mcpAgent(
      { b: { ...stdioFixture("behaviours"), sampling: true } },
      { provider, policy: { mode: "bypass" }, approve: () => "allow" },
    );
    try {
      const { result } = await agent.callTool("mcp__b__sample_tools", {});
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(textOf(result.content), 'get_weather({"city":"Lyon"}) -> It is sunny in Lyon.');
      assert.deepEqual(
        provider.requests[0]!.toolNames,
        ["get_weather"],
        "the server's tool, offered",
      );
      // The second request carries the model's call and the server's result for it.
      assert.deepEqual(provider.requests[1]!.toolNames, ["get_weather"]);
      const [, asked, tool] = provider.requests[1]!.messages;
      assert.equal(asked?.role, "assistant");
      assert.equal(tool?.role, "tool");
      if (asked?.role !== "assistant" || tool?.role !== "tool") return;
      const call = asked.toolCalls[0];
      assert.equal(call?.name, "get_weather");
      assert.deepEqual(call?.arguments, { city: "Lyon" });
      assert.equal(tool.callId, call?.id, "the result answers that call");
      assert.equal(textOf(tool.result.content), "sunny, 21 C");
      assert.equal(provider.played, 2);
      // toolChoice required reaches the provider; the second request asks for nothing.
      assert.equal(provider.requests[0]!.toolChoice, "required");
      assert.equal(provider.requests[1]!.toolChoice, undefined);
      // No sampling_models: the server's hints pick nothing, the agent's own model answers.
      assert.equal(provider.requests[0]!.model, "script");
    } finally {
      await agent.close();
    }
  });

  it("lets a server's model hints pick among the user's sampling_models, never beyond them", async () => {
    const provider = new ScriptedProvider([
      { tool_calls: [{ name: "get_weather", arguments: { city: "Lyon" } }] },
      { text: "Sunny." },
    ]);
    const agent = await mcpAgent(
      {
        b: {
          ...stdioFixture("behaviours"),
          sampling: true,
          // "nano" matches none of these; "haiku", the next hint, picks the first that has it.
          sampling_models: ["claude-opus-4-1", "claude-haiku-4-5", "gpt-5-haiku-like"],
        },
      },
      { provider, policy: { mode: "bypass" }, approve: () => "allow" },
    );
    try {
      const { result } = await agent.callTool("mcp__b__sample_tools", {});
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(provider.requests[0]!.model, "claude-haiku-4-5");
      // The second request has no hints: the agent's own model.
      assert.equal(provider.requests[1]!.model, "script");
    } finally {
      await agent.close();
    }
  });
});
