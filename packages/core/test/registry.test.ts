import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DefaultToolRegistry } from "../src/registry/default-tool-registry.js";
import { type ToolRegistryChange } from "../src/registry/tool-registry.js";
import { type Tool } from "../src/tools/tool.js";
import { type ToolDefinition } from "../src/tools/tool-definition.js";
import { toolSuccess } from "../src/tools/tool-result.js";

function tool(
  name: string,
  source = "a",
  extra: Partial<ToolDefinition> = {},
  run?: Tool["execute"],
): Tool {
  return {
    definition: {
      name,
      description: name,
      inputSchema: { type: "object" },
      safety: "read_only",
      source,
      ...extra,
    },
    execute: run ?? (async (args) => toolSuccess(JSON.stringify(args))),
  };
}

describe("ToolRegistry changes", () => {
  it("emits added, replaced and removed events and bumps the version once per change", () => {
    const registry = new DefaultToolRegistry();
    const events: string[] = [];
    const changes: ToolRegistryChange[] = [];
    registry.on("tool-added", ({ definition }) => events.push(`added:${definition.name}`));
    registry.on("tool-replaced", ({ definition }) => events.push(`replaced:${definition.name}`));
    registry.on("tool-removed", ({ definition }) => events.push(`removed:${definition.name}`));
    registry.on("changed", (change) => changes.push(change));

    registry.applyChange("a", { kind: "full", tools: [tool("one"), tool("two")] });
    registry.applyChange("a", { kind: "full", tools: [tool("two"), tool("three")] });
    registry.applyChange("a", { kind: "delta", remove: ["three"] });

    assert.deepEqual(events, [
      "added:one",
      "added:two",
      "removed:one",
      "replaced:two",
      "added:three",
      "removed:three",
    ]);
    assert.equal(registry.version, 3);
    assert.deepEqual(
      changes.map((change) => [change.added, change.removed, change.replaced]),
      [
        [["one", "two"], [], []],
        [["three"], ["one"], ["two"]],
        [[], ["three"], []],
      ],
    );
    assert.deepEqual(
      registry.definitions().map((definition) => definition.name),
      ["two"],
    );
  });

  it("rejects empty and duplicate names with diagnostics and keeps the rest", () => {
    const registry = new DefaultToolRegistry();
    const diagnostics: string[] = [];
    registry.on("diagnostic", (diagnostic) =>
      diagnostics.push(`${diagnostic.code}:${diagnostic.item}`),
    );
    registry.applyChange("a", { kind: "full", tools: [tool("shared")] });
    const outcome = registry.applyChange("b", {
      kind: "full",
      tools: [
        tool("", "b"),
        tool("shared", "b"),
        tool("mine", "b"),
        tool("mine", "b"),
        tool("  ", "b"),
      ],
    });
    assert.deepEqual(outcome.added, ["mine"]);
    assert.equal(outcome.rejected.length, 4);
    assert.deepEqual(diagnostics, [
      "invalid_tool_name:",
      "duplicate_tool_name:shared",
      "duplicate_tool_name:mine",
      "invalid_tool_name:  ",
    ]);
    assert.equal(registry.get("shared")?.definition.source, "a", "the first owner keeps the name");
    const namesOf = (source: string) => registry.toolsOf(source).map((t) => t.definition.name);
    assert.deepEqual(namesOf("a"), ["shared"]);
    assert.deepEqual(namesOf("b"), ["mine"], "a refused tool is not the source's");
    assert.deepEqual(namesOf("nobody"), []);
  });

  it("caches the definitions list until the registry changes", () => {
    const registry = new DefaultToolRegistry();
    registry.applyChange("a", { kind: "full", tools: [tool("one")] });
    const first = registry.definitions();
    assert.equal(registry.definitions(), first);
    registry.applyChange("a", { kind: "delta", upsert: [tool("two")] });
    assert.notEqual(registry.definitions(), first);
    assert.equal(registry.definitions().length, 2);
  });

  it("removes every tool of a source", () => {
    const registry = new DefaultToolRegistry();
    registry.applyChange("a", { kind: "full", tools: [tool("one"), tool("two")] });
    registry.applyChange("b", { kind: "full", tools: [tool("three", "b")] });
    registry.removeSource("a");
    assert.deepEqual(
      registry.list().map((item) => item.definition.name),
      ["three"],
    );
  });
});

describe("ToolRegistry execution", () => {
  it("answers an unknown tool with unknown_tool", async () => {
    const registry = new DefaultToolRegistry();
    const result = await registry.execute({ id: "1", name: "nope", arguments: {} });
    assert.equal(result.ok, false);
    assert.equal(result.error?.code, "unknown_tool");
  });

  it("rejects arguments that are not an object before the tool runs", async () => {
    const registry = new DefaultToolRegistry();
    let ran = 0;
    registry.applyChange("a", {
      kind: "full",
      tools: [
        tool("t", "a", {}, async () => {
          ran += 1;
          return toolSuccess("x");
        }),
      ],
    });
    for (const bad of [[1, 2], "text", null, 3, undefined]) {
      const result = await registry.execute({ id: "1", name: "t", arguments: bad });
      assert.equal(result.error?.code, "invalid_arguments", `for ${JSON.stringify(bad)}`);
      assert.match(result.error!.message, /must be a JSON object/);
    }
    assert.equal(ran, 0);
  });

  it("runs the tool's own validator and reports its message", async () => {
    const registry = new DefaultToolRegistry();
    const validating: Tool = {
      ...tool("v"),
      validate: (args) =>
        typeof args.q === "string" ? { ok: true } : { ok: false, message: "q: expected string" },
    };
    registry.applyChange("a", { kind: "full", tools: [validating] });
    const bad = await registry.execute({ id: "1", name: "v", arguments: { q: 1 } });
    assert.equal(bad.error?.code, "invalid_arguments");
    assert.match(bad.error!.message, /q: expected string/);
    const good = await registry.execute({ id: "2", name: "v", arguments: { q: "x" } });
    assert.equal(good.ok, true);
  });

  it("keeps its own metadata keys when a tool tries to overwrite them", async () => {
    const registry = new DefaultToolRegistry({ defaultTimeoutMs: 5000 });
    registry.applyChange("a", {
      kind: "full",
      tools: [
        tool("m", "a", {}, async () =>
          toolSuccess("x", { metadata: { tool: "forged", timeout_ms: 1, extra: "kept" } }),
        ),
      ],
    });
    const result = await registry.execute({ id: "c1", name: "m", arguments: {} });
    assert.equal(result.metadata.tool, "m");
    assert.equal(result.metadata.timeout_ms, 5000);
    assert.equal(result.metadata.source, "a");
    assert.equal(result.metadata.call_id, "c1");
    assert.equal(result.metadata.extra, "kept");
    assert.equal(typeof result.metadata.duration_ms, "number");
  });

  it("turns a thrown error into tool_error", async () => {
    const registry = new DefaultToolRegistry();
    registry.applyChange("a", {
      kind: "full",
      tools: [
        tool("boom", "a", {}, async () => {
          throw new Error("disk on fire");
        }),
      ],
    });
    const result = await registry.execute({ id: "1", name: "boom", arguments: {} });
    assert.equal(result.error?.code, "tool_error");
    assert.match(result.error!.message, /disk on fire/);
  });
});

describe("one effective timeout", () => {
  function observer(): { tool: Tool; seen: number[] } {
    const seen: number[] = [];
    return {
      seen,
      tool: tool("t", "a", { timeoutMs: 700 }, async (_args, context) => {
        seen.push(context.timeoutMs);
        return toolSuccess("ok");
      }),
    };
  }

  it("takes the call's value over the tool's over the registry default, and reports it", async () => {
    const registry = new DefaultToolRegistry({ defaultTimeoutMs: 900 });
    const { tool: withOwn, seen } = observer();
    const plain = tool("plain");
    registry.applyChange("a", { kind: "full", tools: [withOwn, plain] });

    const byCall = await registry.execute(
      { id: "1", name: "t", arguments: {} },
      { timeoutMs: 300 },
    );
    assert.deepEqual([byCall.metadata.timeout_ms, byCall.metadata.timeout_source], [300, "call"]);
    const byTool = await registry.execute({ id: "2", name: "t", arguments: {} });
    assert.deepEqual([byTool.metadata.timeout_ms, byTool.metadata.timeout_source], [700, "tool"]);
    const byDefault = await registry.execute({ id: "3", name: "plain", arguments: {} });
    assert.deepEqual(
      [byDefault.metadata.timeout_ms, byDefault.metadata.timeout_source],
      [900, "default"],
    );
    assert.deepEqual(seen, [300, 700], "the tool is told the same single value");
  });

  it("ends a tool that ignores its signal with `timeout` after the grace period", async () => {
    const registry = new DefaultToolRegistry({ abortGraceMs: 50 });
    let release: () => void = () => {};
    registry.applyChange("a", {
      kind: "full",
      tools: [
        tool(
          "stuck",
          "a",
          {},
          () => new Promise((resolve) => (release = () => resolve(toolSuccess("late")))),
        ),
      ],
    });
    const result = await registry.execute(
      { id: "1", name: "stuck", arguments: {} },
      { timeoutMs: 40 },
    );
    release();
    assert.equal(result.error?.code, "timeout");
    assert.match(result.error!.message, /timed out after 40 ms/);
    assert.equal(result.metadata.timeout_ms, 40);
  });

  it("lets a tool that honours the signal report its own, more precise result", async () => {
    const registry = new DefaultToolRegistry({ abortGraceMs: 2000 });
    registry.applyChange("a", {
      kind: "full",
      tools: [
        tool(
          "polite",
          "a",
          {},
          (_args, context) =>
            new Promise((resolve) => {
              context.signal.addEventListener("abort", () =>
                resolve({
                  ok: false,
                  content: [],
                  error: { code: "mcp_call_error", message: "cancelled by client" },
                  metadata: { reason: (context.signal.reason as { kind: string }).kind },
                }),
              );
            }),
        ),
      ],
    });
    const result = await registry.execute(
      { id: "1", name: "polite", arguments: {} },
      { timeoutMs: 30 },
    );
    assert.equal(result.error?.code, "mcp_call_error");
    assert.equal(result.metadata.reason, "timeout");
  });

  it("reports `cancelled` when the caller aborts", async () => {
    const registry = new DefaultToolRegistry({ abortGraceMs: 20 });
    registry.applyChange("a", {
      kind: "full",
      tools: [tool("slow", "a", {}, () => new Promise(() => {}))],
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const result = await registry.execute(
      { id: "1", name: "slow", arguments: {} },
      { signal: controller.signal },
    );
    assert.equal(result.error?.code, "cancelled");
  });

  it("tells onAbort listeners the same reason a signal read later carries, once", async () => {
    const registry = new DefaultToolRegistry({ abortGraceMs: 2000 });
    const heard: string[] = [];
    let late: AbortSignal | undefined;
    registry.applyChange("a", {
      kind: "full",
      tools: [
        tool(
          "listening",
          "a",
          {},
          (_args, context) =>
            new Promise((resolve) => {
              context.onAbort((reason) => heard.push(`first ${reason.kind}`));
              const removed = context.onAbort(() => heard.push("removed"));
              removed.dispose();
              context.onAbort(() => {
                throw new Error("a broken listener");
              });
              context.onAbort((reason) => {
                heard.push(`last ${reason.kind}`);
                // After the abort: a listener added now runs at once, and the signal is made aborted.
                context.onAbort((again) => heard.push(`after ${again.kind}`));
                late = context.signal;
                resolve(toolSuccess("stopped"));
              });
            }),
        ),
      ],
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    const result = await registry.execute(
      { id: "1", name: "listening", arguments: {} },
      { timeoutMs: 30 },
    );
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", onWarning);
    assert.equal(result.ok, true, "the tool's own result, within the grace");
    assert.deepEqual(heard, ["first timeout", "last timeout", "after timeout"]);
    assert.ok(late, "the tool read its signal");
    assert.equal(late.aborted, true);
    assert.match(String((late.reason as Error).message), /timed out after 30 ms/);
    assert.ok(
      warnings.some((message) => /a broken listener/.test(message)),
      warnings.join(),
    );
  });

  it("hands a context whose members work when taken out of it", async () => {
    const registry = new DefaultToolRegistry({ abortGraceMs: 2000 });
    const progress: number[] = [];
    const seen: Record<string, unknown> = {};
    registry.applyChange("a", {
      kind: "full",
      tools: [
        tool(
          "destructures",
          "a",
          {},
          (_args, context) =>
            new Promise((resolve) => {
              const { onAbort, reportProgress, progressWanted, judge, callId, timeoutMs } = context;
              Object.assign(seen, { progressWanted, judge, callId, timeoutMs });
              seen.sameFunction = context.onAbort === onAbort;
              reportProgress({ progress: 1 });
              reportProgress({ progress: 2 });
              onAbort((reason) => {
                const { signal } = context;
                resolve(toolSuccess(`${reason.kind} ${signal.aborted}`));
              });
            }),
        ),
      ],
    });
    const result = await registry.execute(
      { id: "c1", name: "destructures", arguments: {} },
      { timeoutMs: 40, onProgress: (update) => progress.push(update.progress) },
    );
    assert.equal(result.ok, true);
    assert.equal(result.content[0]?.type === "text" && result.content[0].text, "timeout true");
    assert.deepEqual(progress, [1, 2]);
    assert.deepEqual(seen, {
      progressWanted: true,
      // No policy runs a registry used on its own.
      judge: undefined,
      callId: "c1",
      timeoutMs: 40,
      sameFunction: true,
    });
  });

  it("judges other arguments and other tools through the policy it was given", async () => {
    const registry = new DefaultToolRegistry();
    registry.applyChange("a", {
      kind: "full",
      tools: [
        tool("other", "a", { safety: "side_effect" }),
        tool("asks", "a", {}, async (_args, context) => {
          const { judge } = context;
          assert.ok(judge, "a judge when a policy is given");
          const own = await judge({ path: "x" });
          const other = await judge({}, "other");
          const missing = await judge({}, "missing");
          return toolSuccess(`${own?.verdict} ${other?.verdict} ${missing}`);
        }),
      ],
    });
    const result = await registry.execute(
      { id: "c2", name: "asks", arguments: {} },
      {
        judge: (definition) => ({
          verdict: definition.safety === "read_only" ? "allow" : "ask",
          reason: "test",
          matched: { kind: "safety", safety: definition.safety },
        }),
      },
    );
    assert.equal(
      result.content[0]?.type === "text" && result.content[0].text,
      "allow ask undefined",
    );
  });

  it("gives a tool that reads its signal only after the caller aborted an aborted one", async () => {
    const registry = new DefaultToolRegistry({ abortGraceMs: 500 });
    const controller = new AbortController();
    registry.applyChange("a", {
      kind: "full",
      tools: [
        tool("late-reader", "a", {}, async (_args, context) => {
          controller.abort();
          await new Promise((resolve) => setTimeout(resolve, 5));
          const signal = context.signal;
          return toolSuccess(`${signal.aborted} ${(signal.reason as { kind: string }).kind}`);
        }),
      ],
    });
    const result = await registry.execute(
      { id: "1", name: "late-reader", arguments: {} },
      { signal: controller.signal },
    );
    assert.deepEqual(result.content, [{ type: "text", text: "true cancelled" }]);
  });
});

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
