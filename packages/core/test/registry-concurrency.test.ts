import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toolSuccess } from "../src/contracts/tool-result.js";
import { DefaultToolRegistry } from "../src/registry/default-tool-registry.js";
import { tool } from "./support/stub-tool.js";

describe("ToolRegistry concurrency limit", () => {
  /** A tool that records how many of its calls run at once, each for `ms`. */
  function counting(name: string, state: { now: number; max: number }, ms = 20, source = "a") {
    return tool(name, source, {}, async (args) => {
      state.now++;
      state.max = Math.max(state.max, state.now);
      await new Promise((resolve) => setTimeout(resolve, ms));
      state.now--;
      return toolSuccess(String(args.n));
    });
  }

  it("runs at most maxConcurrentCalls at once, the rest in order, every result to its call", async () => {
    const registry = new DefaultToolRegistry({ maxConcurrentCalls: 3 });
    const state = { now: 0, max: 0 };
    registry.applyChange("a", { kind: "full", tools: [counting("work", state)] });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        registry.execute({ id: `c${n}`, name: "work", arguments: { n } }),
      ),
    );
    assert.equal(state.max, 3);
    results.forEach((result, n) => {
      assert.equal(result.ok, true);
      assert.deepEqual(result.content, [{ type: "text", text: String(n) }]);
    });
    assert.equal(results[19]!.metadata.waited_for_slot, true);
    assert.equal(results[0]!.metadata.waited_for_slot, undefined);
  });

  it("takes a call that waits for a slot out of the queue when its caller aborts", async () => {
    const registry = new DefaultToolRegistry({ maxConcurrentCalls: 1 });
    const state = { now: 0, max: 0 };
    registry.applyChange("a", { kind: "full", tools: [counting("work", state, 100)] });
    const first = registry.execute({ id: "c1", name: "work", arguments: { n: 1 } });
    const controller = new AbortController();
    const waiting = registry.execute(
      { id: "c2", name: "work", arguments: { n: 2 } },
      { signal: controller.signal },
    );
    const third = registry.execute({ id: "c3", name: "work", arguments: { n: 3 } });
    controller.abort();
    const cancelled = await waiting;
    assert.equal(cancelled.error?.code, "cancelled");
    assert.match(cancelled.error!.message, /while it waited for one of the agent's 1 call slots/);
    assert.equal((await first).ok, true);
    assert.deepEqual((await third).content, [{ type: "text", text: "3" }], "the queue moved on");
  });

  it("does not hold a slot for a sub-agent's call, whose child's calls take their own", async () => {
    const registry = new DefaultToolRegistry({ maxConcurrentCalls: 1 });
    registry.applyChange("a", { kind: "full", tools: [tool("inner")] });
    // A sub-agent's tool whose work is a call of the same registry: with a slot held it would
    // wait for itself.
    const outer = tool("agent__helper", "subagent:helper", { subAgent: true }, async () => {
      const inner = await registry.execute({ id: "i", name: "inner", arguments: { n: 1 } });
      return toolSuccess(`inner said ${inner.ok}`);
    });
    registry.applyChange("subagent:helper", { kind: "full", tools: [outer] });
    const result = await registry.execute({ id: "o", name: "agent__helper", arguments: {} });
    assert.deepEqual(result.content, [{ type: "text", text: "inner said true" }]);
  });

  it("refuses a limit that is not a whole number of 1 or more", () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      assert.throws(
        () => new DefaultToolRegistry({ maxConcurrentCalls: bad }),
        /maxConcurrentCalls/,
      );
  });
});
