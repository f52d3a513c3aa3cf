import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAgent } from "@pseudoclaude/core";
import {
  createTestTool,
  InMemoryToolSource,
  recordEvents,
  ScriptedProvider,
  sleep,
} from "@pseudoclaude/testing";
import { agentWith, sourcePlugin, toolMessages } from "./support/scripted-agent.js";

/** A tool that counts how many of its calls are in flight at once. */
function concurrencyProbe(
  name: string,
  safety: "read_only" | "side_effect",
  state: { now: number; max: number; order: string[] },
) {
  return createTestTool({
    name,
    safety,
    run: async () => {
      state.now += 1;
      state.max = Math.max(state.max, state.now);
      state.order.push(`start:${name}`);
      await sleep(30);
      state.order.push(`end:${name}`);
      state.now -= 1;
      return `${name} done`;
    },
  });
}

describe("agent loop", () => {
  it("runs a tool call through the loop and gives the model its result", async () => {
    const echo = createTestTool({
      name: "echo",
      safety: "read_only",
      run: (args) => `echo: ${args.text}`,
    });
    const { agent, provider } = await agentWith(
      [echo],
      [
        {
          text: "Let me check.",
          tool_calls: [{ id: "c1", name: "echo", arguments: { text: "hi" } }],
        },
        { text: "Done: hi" },
      ],
    );
    const events = recordEvents(agent);
    const result = await agent.run("say hi");
    await agent.close();

    assert.equal(result.text, "Done: hi");
    assert.equal(result.turns, 2);
    assert.equal(result.stopReason, "end_turn");
    assert.deepEqual(
      echo.calls.map((c) => c.args),
      [{ text: "hi" }],
    );
    const [message] = toolMessages(provider, 1);
    assert.equal(message!.callId, "c1");
    assert.deepEqual(message!.result.content, [{ type: "text", text: "echo: hi" }]);
    assert.equal(result.toolCalls[0]!.decision.verdict, "allow");
    // The run events of a call have their own test ("times a call's run apart from ...").
    const names = events
      .map(([name]) => name)
      .filter(
        (name) => name !== "text-delta" && name !== "tool-run-start" && name !== "tool-run-end",
      );
    assert.deepEqual(names, [
      "run-start",
      "turn-start",
      "turn-end",
      "tool-call-start",
      "tool-decision",
      "tool-call-end",
      "turn-start",
      "turn-end",
      "run-end",
    ]);
    assert.equal(
      events
        .filter(([name]) => name === "text-delta")
        .map(([, payload]) => (payload as { text: string }).text)
        .join(""),
      "Let me check.Done: hi",
    );
  });

  it("runs the read-only calls of one turn concurrently", async () => {
    const state = { now: 0, max: 0, order: [] as string[] };
    const tools = ["r1", "r2", "r3"].map((name) => concurrencyProbe(name, "read_only", state));
    const { agent } = await agentWith(tools, [
      { tool_calls: [{ name: "r1" }, { name: "r2" }, { name: "r3" }] },
      { text: "ok" },
    ]);
    await agent.run("go");
    await agent.close();
    assert.equal(state.max, 3);
  });

  it("runs side-effect calls one at a time in the model's order, reads around them in batches", async () => {
    const state = { now: 0, max: 0, order: [] as string[] };
    const tools = [
      concurrencyProbe("r1", "read_only", state),
      concurrencyProbe("r2", "read_only", state),
      concurrencyProbe("w1", "side_effect", state),
      concurrencyProbe("w2", "side_effect", state),
      concurrencyProbe("r3", "read_only", state),
    ];
    const { agent, provider } = await agentWith(
      tools,
      [{ tool_calls: ["r1", "r2", "w1", "w2", "r3"].map((name) => ({ name })) }, { text: "ok" }],
      { policy: { mode: "bypass" } },
    );
    await agent.run("go");
    await agent.close();
    const order = state.order;
    assert.ok(
      order.indexOf("end:r1") < order.indexOf("start:w1") &&
        order.indexOf("end:r2") < order.indexOf("start:w1"),
    );
    assert.ok(order.indexOf("end:w1") < order.indexOf("start:w2"), "w2 waits for w1");
    assert.ok(order.indexOf("end:w2") < order.indexOf("start:r3"), "r3 waits for w2");
    assert.equal(order.indexOf("start:r2") < order.indexOf("end:r1"), true, "r1 and r2 overlap");
    assert.deepEqual(
      toolMessages(provider, 1).map((m) => m.toolName),
      ["r1", "r2", "w1", "w2", "r3"],
      "results keep the call order",
    );
  });

  it("answers an unknown tool with unknown_tool and carries on", async () => {
    const { agent } = await agentWith([], [{ tool_calls: [{ name: "ghost" }] }, { text: "ok" }]);
    const result = await agent.run("go");
    await agent.close();
    assert.equal(result.toolCalls[0]!.result.error?.code, "unknown_tool");
    assert.equal(result.text, "ok");
  });

  it("shows the model a tool added while the agent runs on its next turn", async () => {
    const source = new InMemoryToolSource("live", [
      createTestTool({ name: "first", safety: "read_only" }),
    ]);
    const provider = new ScriptedProvider([
      () => {
        source.upsert(createTestTool({ name: "second", safety: "read_only" }));
        return { tool_calls: [{ name: "first" }] };
      },
      { text: "ok" },
    ]);
    const agent = await createAgent({ config: false, provider, plugins: [sourcePlugin(source)] });
    await agent.run("go");
    await agent.close();
    assert.deepEqual(
      provider.requests.map((r) => r.toolNames),
      [["first"], ["first", "second"]],
    );
  });

  it("turns content kinds the model cannot read into counted placeholders, never dropping them", async () => {
    const picture = createTestTool({
      name: "picture",
      safety: "read_only",
      run: () => ({
        ok: true,
        content: [
          { type: "text", text: "caption" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "audio", data: "BBBB", mimeType: "audio/wav" },
        ],
        metadata: {},
      }),
    });
    const provider = new ScriptedProvider([{ tool_calls: [{ name: "picture" }] }, { text: "ok" }], {
      toolResultContent: ["text", "image"],
    });
    const agent = await createAgent({
      config: false,
      provider,
      plugins: [sourcePlugin(new InMemoryToolSource("memory", [picture]))],
    });
    const result = await agent.run("go");
    await agent.close();
    const seen = toolMessages(provider, 1)[0]!.result;
    assert.deepEqual(
      seen.content.map((block) => block.type),
      ["text", "image", "text"],
    );
    assert.match(
      (seen.content[2] as { text: string }).text,
      /\[audio content: audio\/wav, 3 bytes, not shown to this model\]/,
    );
    assert.deepEqual(seen.metadata.content_placeholders, { audio: 1 });
    assert.deepEqual(result.toolCalls[0]!.result, seen, "the record holds what the model saw");
  });
});
