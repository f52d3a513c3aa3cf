import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createToolNameMap, wireToolName } from "../src/provider/tool-name-map.js";
import { VALID_TOOL_NAME } from "../src/tools/tool-name.js";

describe("tool name map", () => {
  it("leaves names the API accepts unchanged", () => {
    const names = createToolNameMap(["get_forecast", "mcp__context7__search-docs"]);
    assert.equal(names.toWire("get_forecast"), "get_forecast");
    assert.equal(names.toWire("mcp__context7__search-docs"), "mcp__context7__search-docs");
    assert.equal(names.fromWire("get_forecast"), "get_forecast");
  });

  it("maps refused names to valid, hashed ones and back", () => {
    const registry = [
      "mcp__docs.v2__search",
      "files/read",
      "ünïcode tool",
      `long_${"x".repeat(80)}`,
    ];
    const names = createToolNameMap(registry);
    const wire = registry.map((name) => names.toWire(name));
    for (const name of wire) assert.match(name, VALID_TOOL_NAME);
    assert.equal(new Set(wire).size, registry.length, "no two names meet on the wire");
    assert.deepEqual(
      wire.map((name) => names.fromWire(name)),
      registry,
    );
    assert.match(wire[0]!, /^mcp__docs_v2__search_[0-9a-f]{8}$/);
    assert.equal(wire[3]!.length, 64);
  });

  it("is deterministic, so history from earlier turns keeps its names", () => {
    assert.equal(
      createToolNameMap(["a.b"]).toWire("a.b"),
      createToolNameMap(["x", "a.b"]).toWire("a.b"),
    );
    assert.equal(createToolNameMap([]).toWire("a.b"), wireToolName("a.b"));
  });

  it("keeps two names apart that sanitize alike", () => {
    const names = createToolNameMap(["a.b", "a/b", "a_b"]);
    const wire = ["a.b", "a/b", "a_b"].map((name) => names.toWire(name));
    assert.equal(new Set(wire).size, 3);
    assert.equal(names.fromWire(wire[1]!), "a/b");
  });

  it("salts a hashed name that collides with a registry name that looks hashed", () => {
    const hashed = wireToolName("a.b");
    const names = createToolNameMap([hashed, "a.b"]);
    assert.equal(names.toWire(hashed), hashed);
    assert.notEqual(names.toWire("a.b"), hashed);
    assert.equal(names.fromWire(names.toWire("a.b")), "a.b");
  });

  it("passes names the model invented through unchanged, for the registry to answer unknown_tool", () => {
    assert.equal(createToolNameMap(["a"]).fromWire("made_up"), "made_up");
  });
});
