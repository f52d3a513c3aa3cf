import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Tool } from "../src/contracts/tool.js";
import { toolSuccess } from "../src/contracts/tool-result.js";
import { DefaultToolRegistry } from "../src/registry/default-tool-registry.js";
import { tool } from "./support/stub-tool.js";

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
