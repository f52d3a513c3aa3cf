import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Tool } from "../src/contracts/tool.js";
import { toolSuccess } from "../src/contracts/tool-result.js";
import { DefaultToolRegistry } from "../src/registry/default-tool-registry.js";
import { tool } from "./support/stub-tool.js";

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
