import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ModelError } from "@pseudoclaude/core";
import { createTestTool, sleep } from "@pseudoclaude/testing";
import { agentWith } from "./support/scripted-agent.js";

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
