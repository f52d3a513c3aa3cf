import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Agent,
  createAgent,
  definePlugin,
  ModelError,
  type PolicyEngine,
  type Tool,
} from "@pseudoclaude/core";
import { type ToolResultMessage } from "@pseudoclaude/core/provider";
import {
  createTestTool,
  InMemoryToolSource,
  recordEvents,
  ScriptedProvider,
  type ScriptedStep,
  sleep,
} from "@pseudoclaude/testing";

function sourcePlugin(source: InMemoryToolSource) {
  return definePlugin({
    name: `source-${source.id}`,
    register: (context) => void context.addToolSource(source),
  });
}

async function agentWith(
  tools: Tool[],
  steps: ScriptedStep[],
  options: Parameters<typeof createAgent>[0] = {},
): Promise<{ agent: Agent; provider: ScriptedProvider; source: InMemoryToolSource }> {
  const provider = new ScriptedProvider(steps);
  const source = new InMemoryToolSource("memory", tools);
  const agent = await createAgent({
    config: false,
    provider,
    plugins: [sourcePlugin(source)],
    ...options,
  });
  return { agent, provider, source };
}

function toolMessages(provider: ScriptedProvider, request: number): ToolResultMessage[] {
  return provider.requests[request]!.messages.filter(
    (m): m is ToolResultMessage => m.role === "tool",
  );
}

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

/** An agent whose model calls a read-only tool that runs until its signal aborts. */
function agentWithSlowCall(abortGraceMs: number) {
  const slow = createTestTool({
    name: "slow",
    safety: "read_only",
    run: async (_args, context) => {
      await sleep(10_000, context.signal);
      return "never";
    },
  });
  return agentWith([slow], [{ tool_calls: [{ name: "slow" }] }, { text: "unreached" }], {
    abortGraceMs,
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

  it("gives a denied call back to the model as a structured result", async () => {
    const write = createTestTool({ name: "write" });
    const { agent, provider } = await agentWith(
      [write],
      [{ tool_calls: [{ name: "write", arguments: {} }] }, { text: "ok" }],
    );
    const result = await agent.run("go");
    await agent.close();
    const record = result.toolCalls[0]!;
    assert.equal(record.decision.verdict, "ask");
    assert.equal(record.approval, "no_approver");
    assert.equal(record.result.error?.code, "denied");
    assert.match(record.result.error!.message, /needs approval/);
    assert.equal(write.calls.length, 0);
    assert.equal(toolMessages(provider, 1)[0]!.result.error?.code, "denied");
  });

  it("runs an asked call when the approver allows it and refuses it when the approver denies", async () => {
    const write = createTestTool({ name: "write" });
    const asked: string[] = [];
    const { agent } = await agentWith(
      [write],
      [
        {
          tool_calls: [
            { name: "write", arguments: { n: 1 } },
            { name: "write", arguments: { n: 2 } },
          ],
        },
        { text: "ok" },
      ],
      {
        approve: (request) => {
          asked.push(request.tool.name);
          return (request.call.arguments as { n: number }).n === 1
            ? "allow"
            : { verdict: "deny", reason: "not that one" };
        },
      },
    );
    const result = await agent.run("go");
    await agent.close();
    assert.deepEqual(asked, ["write", "write"]);
    assert.deepEqual(
      result.toolCalls.map((r) => r.approval),
      ["approved", "rejected"],
    );
    assert.equal(result.toolCalls[0]!.result.ok, true);
    assert.match(result.toolCalls[1]!.result.error!.message, /not that one/);
    assert.deepEqual(
      write.calls.map((c) => c.args),
      [{ n: 1 }],
    );
  });

  it("does not ask a person to approve a call whose arguments cannot be valid", async () => {
    const write = createTestTool({ name: "write" });
    write.validate = (args) =>
      typeof args.path === "string" ? { ok: true } : { ok: false, message: "path: required" };
    let asked = 0;
    const { agent } = await agentWith(
      [write],
      [{ tool_calls: [{ name: "write", arguments: { nope: 1 } }] }, { text: "ok" }],
      {
        approve: () => {
          asked += 1;
          return "allow";
        },
      },
    );
    const result = await agent.run("go");
    await agent.close();
    assert.equal(asked, 0);
    assert.equal(result.toolCalls[0]!.decision.verdict, "ask");
    assert.equal(result.toolCalls[0]!.result.error?.code, "invalid_arguments");
    assert.match(result.toolCalls[0]!.result.error!.message, /path: required/);
    assert.equal(write.calls.length, 0);
  });

  it("offers only read-only tools in plan mode and denies the rest even if the model calls them", async () => {
    const read = createTestTool({ name: "read", safety: "read_only" });
    const write = createTestTool({ name: "write" });
    const { agent, provider } = await agentWith(
      [read, write],
      [{ tool_calls: [{ name: "write" }] }, { text: "ok" }],
      {
        policy: { mode: "plan" },
        approve: () => "allow",
      },
    );
    const result = await agent.run("go");
    await agent.close();
    assert.deepEqual(provider.requests[0]!.toolNames, ["read"]);
    assert.equal(result.toolCalls[0]!.decision.verdict, "deny");
    assert.equal(write.calls.length, 0);
  });

  it("does not offer a tool denied by rule", async () => {
    const { agent, provider } = await agentWith(
      [
        createTestTool({ name: "keep", safety: "read_only" }),
        createTestTool({ name: "secret_drop" }),
      ],
      [{ text: "ok" }],
      { policy: { deny: ["secret_*"] } },
    );
    await agent.run("go");
    await agent.close();
    assert.deepEqual(provider.requests[0]!.toolNames, ["keep"]);
  });

  it("answers an unknown tool with unknown_tool and carries on", async () => {
    const { agent } = await agentWith([], [{ tool_calls: [{ name: "ghost" }] }, { text: "ok" }]);
    const result = await agent.run("go");
    await agent.close();
    assert.equal(result.toolCalls[0]!.result.error?.code, "unknown_tool");
    assert.equal(result.text, "ok");
  });

  it("stops at max_turns", async () => {
    const loop = createTestTool({ name: "loop", safety: "read_only" });
    const again = { tool_calls: [{ name: "loop" }] };
    const { agent } = await agentWith([loop], [again, again, again, again], { maxTurns: 2 });
    const result = await agent.run("go");
    await agent.close();
    assert.equal(result.stopReason, "max_turns");
    assert.equal(result.turns, 2);
    assert.equal(loop.calls.length, 2);
  });

  it("cancels a running tool when the run is aborted", async () => {
    const { agent } = await agentWithSlowCall(200);
    const controller = new AbortController();
    agent.on("tool-call-start", () => setTimeout(() => controller.abort(), 20));
    const result = await agent.run("go", { signal: controller.signal });
    await agent.close();
    assert.equal(result.stopReason, "aborted");
    assert.equal(result.toolCalls[0]!.result.error?.code, "cancelled");
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

  it("denies every call when the policy engine throws (fails closed)", async () => {
    const broken: PolicyEngine = {
      mode: "default",
      isOffered: () => true,
      decide: () => {
        throw new Error("rules database offline");
      },
    };
    const { agent } = await agentWith(
      [createTestTool({ name: "read", safety: "read_only" })],
      [{ tool_calls: [{ name: "read" }] }, { text: "ok" }],
      { policyEngine: broken },
    );
    const result = await agent.run("go");
    await agent.close();
    assert.equal(result.toolCalls[0]!.decision.verdict, "deny");
    assert.match(result.toolCalls[0]!.result.error!.message, /rules database offline/);
  });

  it("rejects the run with a ModelError when the provider fails, and emits an error event", async () => {
    const { agent } = await agentWith([], [{ error: "upstream 500" }]);
    const errors: unknown[] = [];
    agent.on("error", (event) => errors.push(event.error));
    await assert.rejects(
      agent.run("go"),
      (error: unknown) => error instanceof ModelError && /upstream 500/.test(error.message),
    );
    await agent.close();
    assert.equal(errors.length, 1);
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

  it("refuses a second run while one is in progress, and runs again after it", async () => {
    const slow = createTestTool({
      name: "slow",
      safety: "read_only",
      run: () => sleep(50).then(() => "done"),
    });
    const { agent } = await agentWith(
      [slow],
      [{ tool_calls: [{ name: "slow" }] }, { text: "one" }, { text: "two" }],
    );
    const first = agent.run("first");
    await assert.rejects(agent.run("second"), /already in progress/);
    assert.equal((await first).text, "one");
    assert.equal((await agent.run("third")).text, "two");
    await agent.close();
  });

  it("aborts a run in progress when the agent is closed, and refuses runs after", async () => {
    const { agent } = await agentWithSlowCall(100);
    agent.on("tool-call-start", () => setTimeout(() => void agent.close(), 20));
    const result = await agent.run("go");
    assert.equal(result.stopReason, "aborted");
    assert.equal(result.toolCalls[0]!.result.error?.code, "cancelled");
    await assert.rejects(agent.run("again"), /agent is closed/);
  });

  it("keeps the conversation across runs", async () => {
    const { agent, provider } = await agentWith([], [{ text: "one" }, { text: "two" }]);
    await agent.run("first");
    await agent.run("second");
    await agent.close();
    assert.deepEqual(
      provider.requests[1]!.messages.map((m) => m.role),
      ["user", "assistant", "user"],
    );
  });
});
