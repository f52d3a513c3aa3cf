import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DefaultToolRegistry } from "../src/registry/default-tool-registry.js";
import { type ToolRegistryChange } from "../src/registry/tool-registry.js";
import { tool } from "./support/stub-tool.js";

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

  it("takes a tool pushed again as the same object as no change, also one offered with a repaired schema", () => {
    const registry = new DefaultToolRegistry();
    const events: string[] = [];
    registry.on("tool-added", ({ definition }) => events.push(`added:${definition.name}`));
    registry.on("tool-replaced", ({ definition }) => events.push(`replaced:${definition.name}`));
    registry.on("tool-removed", ({ definition }) => events.push(`removed:${definition.name}`));
    const plain = tool("plain");
    // No `type`: the registry offers a view of it with `type: "object"` added.
    const repaired = tool("repaired", "a", { inputSchema: { properties: {} } });

    registry.applyChange("a", { kind: "full", tools: [plain, repaired] });
    const offered = registry.get("repaired");
    assert.notEqual(offered, repaired);
    assert.equal(offered?.definition.inputSchema.type, "object");
    const second = registry.applyChange("a", { kind: "full", tools: [plain, repaired] });
    assert.deepEqual([second.added, second.replaced, second.removed], [[], [], []]);
    assert.equal(registry.get("repaired"), offered);
    assert.equal(registry.version, 1);

    // A new object under the same name replaces it; removed and pushed again, it is new.
    const newer = tool("repaired", "a", { inputSchema: { properties: {} } });
    registry.applyChange("a", { kind: "full", tools: [plain, newer] });
    registry.applyChange("a", { kind: "delta", remove: ["repaired"] });
    registry.applyChange("a", { kind: "delta", upsert: [newer] });
    assert.deepEqual(events, [
      "added:plain",
      "added:repaired",
      "replaced:repaired",
      "removed:repaired",
      "added:repaired",
    ]);
    assert.equal(registry.get("repaired")?.definition.inputSchema.type, "object");
    assert.equal(registry.version, 4);
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
