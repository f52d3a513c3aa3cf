// Where each tool sits in the program's `tools` object, and how a program reaches it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { guestAccessor, guestSegments, toolNamespaces } from "../src/declarations/index.js";

describe("toolNamespaces", () => {
  it("groups an MCP server's tools under the server and keeps other names as they are", () => {
    assert.deepEqual(
      toolNamespaces([
        "mcp__github__search_issues",
        "mcp__github__get_issue",
        "read_file",
        "agent__reviewer",
        "tool_search",
        "mcp__list_resources",
        "mcp__my-server__get-env",
      ]),
      {
        "github.search_issues": "mcp__github__search_issues",
        "github.get_issue": "mcp__github__get_issue",
        read_file: "read_file",
        agent__reviewer: "agent__reviewer",
        tool_search: "tool_search",
        mcp__list_resources: "mcp__list_resources",
        "my-server.get-env": "mcp__my-server__get-env",
      },
    );
  });

  it("nests dotted names", () => {
    assert.deepEqual(toolNamespaces(["docs.v2.search", "docs.v2.fetch"]), {
      "docs.v2.search": "docs.v2.search",
      "docs.v2.fetch": "docs.v2.fetch",
    });
  });

  it("gives a built-in its name when a server is named like it, and the server's tools their full names", () => {
    assert.deepEqual(toolNamespaces(["mcp__read_file__list", "read_file"]), {
      read_file: "read_file",
      mcp__read_file__list: "mcp__read_file__list",
    });
  });

  it("settles two names that want one path by name, whatever order they come in", () => {
    const names = ["mcp__github__x", "github.x", "mcp__a__b", "a.b.c", "z"];
    const expected = {
      "github.x": "github.x",
      mcp__github__x: "mcp__github__x",
      "a.b": "mcp__a__b",
      z: "z",
    };
    assert.deepEqual(toolNamespaces(names), expected);
    assert.deepEqual(toolNamespaces([...names].reverse()), expected);
    // `a.b.c` would sit inside the tool `a.b`, and its full name has dots: callTool only.
    assert.ok(!Object.values(toolNamespaces(names)).includes("a.b.c"));
  });

  it("leaves out names no path can be given to, and never makes a __proto__ property", () => {
    const namespaces = toolNamespaces(["", "a..b", ".x", "__proto__", "mcp__srv____proto__", "ok"]);
    assert.deepEqual(namespaces, { mcp__srv____proto__: "mcp__srv____proto__", ok: "ok" });
    for (const path of Object.keys(namespaces))
      assert.ok(!guestSegments(path).includes("__proto__"), path);
  });

  it("gives each name at most one path and each path one name, for duplicates too", () => {
    const namespaces = toolNamespaces(["read_file", "read_file", "mcp__s__t", "mcp__s__t"]);
    assert.deepEqual(namespaces, { read_file: "read_file", "s.t": "mcp__s__t" });
  });
});

describe("guestAccessor", () => {
  it("reaches identifiers with dots and anything else with quoted brackets", () => {
    assert.equal(guestAccessor("github.search_issues"), "tools.github.search_issues");
    assert.equal(guestAccessor("my-server.get-env"), 'tools["my-server"]["get-env"]');
    assert.equal(guestAccessor('we"ird.x'), 'tools["we\\"ird"].x');
    assert.equal(guestAccessor("read_file", "globalThis.tools"), "globalThis.tools.read_file");
  });
});
