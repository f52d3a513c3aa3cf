import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { VALID_TOOL_NAME } from "@pseudoclaude/core/plugin";
import { assignLocalNames } from "../src/index.js";

describe("local tool names", () => {
  it("keeps mcp__<server>__<tool> when it is already valid", () => {
    assert.deepEqual(assignLocalNames("context7", ["search_docs"]), [
      { remoteName: "search_docs", localName: "mcp__context7__search_docs" },
    ]);
  });

  it("replaces invalid characters and reports the rename", () => {
    const [named] = assignLocalNames("docs", ["search.docs v2"]);
    assert.equal(named!.localName, "mcp__docs__search_docs_v2");
    assert.match(named!.renamed!, /invalid characters/);
  });

  it("never lets a made-valid name collide with a real one, whatever the order", () => {
    const forward = assignLocalNames("s", ["a.b", "a_b"]);
    const backward = assignLocalNames("s", ["a_b", "a.b"]);
    const byRemote = (list: typeof forward) =>
      Object.fromEntries(list.map((n) => [n.remoteName, n.localName]));
    assert.deepEqual(byRemote(forward), byRemote(backward), "deterministic");
    assert.equal(byRemote(forward).a_b, "mcp__s__a_b", "the valid name keeps its name");
    assert.notEqual(byRemote(forward)["a.b"], "mcp__s__a_b");
    assert.match(byRemote(forward)["a.b"]!, /^mcp__s__a_b_[0-9a-f]{8}$/);
  });

  it("shortens over-long names with a stable hash so two long names stay distinct", () => {
    const long = `tool_${"x".repeat(90)}`;
    const names = assignLocalNames("srv", [long, `${long}_2`]);
    for (const named of names) {
      assert.ok(VALID_TOOL_NAME.test(named.localName), named.localName);
      assert.equal(named.localName.length, 64);
    }
    assert.notEqual(names[0]!.localName, names[1]!.localName);
    assert.deepEqual(
      assignLocalNames("srv", [long])[0]!.localName,
      names[0]!.localName,
      "stable across runs",
    );
  });

  it("makes every name valid for the provider rule", () => {
    for (const named of assignLocalNames("s", ["ünïcödé", "a/b", "with space", "ok-name"])) {
      assert.ok(VALID_TOOL_NAME.test(named.localName), named.localName);
    }
  });
});
