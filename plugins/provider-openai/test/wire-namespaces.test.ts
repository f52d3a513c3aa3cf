import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolDefinition } from "@pseudoclaude/core";
import {
  MAX_NAMESPACE_DESCRIPTION,
  type SearchableFunction,
  toNamespaces,
} from "../src/wire-namespaces.js";

/** A deferred function of `server` (an MCP tool), or of `source` when no server is given. */
function searchable(
  remote: string,
  server: string | undefined,
  source = "mcp",
): SearchableFunction {
  const name = server ? `mcp__${server}__${remote}` : remote;
  const definition: ToolDefinition = {
    name,
    description: `${remote} does things.`,
    inputSchema: { type: "object", properties: {} },
    safety: "read_only",
    source,
    ...(server ? { meta: { server, remote_name: remote } } : {}),
  };
  const fn = {
    name: name.replace(/[^a-zA-Z0-9_-]/g, "_"),
    description: definition.description,
    parameters: definition.inputSchema,
    strict: false,
  };
  return { definition, fn };
}

describe("OpenAI namespaces for the hosted tool search", () => {
  it("names each namespace validly and uniquely, the right names first", () => {
    const namespaces = toNamespaces(
      [
        searchable("search", "docs.v2"),
        searchable("fetch", "docs_v2"),
        searchable("create_issue", "github"),
        searchable("helper", undefined, "github"),
        searchable("local", undefined, "my tools"),
      ],
      new Set(["tool_search"]),
    );
    const names = namespaces.map((namespace) => namespace.name);
    assert.equal(new Set(names).size, names.length);
    for (const name of names) assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/);
    // `docs_v2` and `github` are their servers' own; the others give way with a hash.
    const byDescription = Object.fromEntries(namespaces.map((ns) => [ns.description, ns.name]));
    assert.equal(byDescription['Tools of the MCP server "docs_v2": fetch (1 tool)'], "docs_v2");
    assert.match(
      byDescription['Tools of the MCP server "docs.v2": search (1 tool)']!,
      /^docs_v2_[0-9a-f]{8}$/,
    );
    assert.equal(
      byDescription['Tools of the MCP server "github": create_issue (1 tool)'],
      "github",
    );
    assert.match(byDescription['Tools of "github": helper (1 tool)']!, /^github_[0-9a-f]{8}$/);
    assert.equal(byDescription['Tools of "my tools": local (1 tool)'], "my_tools");
    assert.deepEqual(names, [...names].sort());
  });

  it("never takes a name another tool of the request has", () => {
    const [namespace] = toNamespaces([searchable("x", "tool_search")], new Set(["tool_search"]));
    assert.match(namespace!.name, /^tool_search_[0-9a-f]{8}$/);
  });

  it("describes a namespace in at most MAX_NAMESPACE_DESCRIPTION characters", () => {
    const many = Array.from({ length: 40 }, (_, n) =>
      searchable(`a_rather_long_tool_name_number_${String(n).padStart(2, "0")}`, "big"),
    );
    const [big] = toNamespaces(many, new Set());
    assert.ok(big!.description.length <= MAX_NAMESPACE_DESCRIPTION, big!.description);
    assert.match(
      big!.description,
      /^Tools of the MCP server "big": a_rather_long_tool_name_number_00, .*, … \(40 tools\)$/,
    );
    assert.equal(big!.tools.length, 40);
    const long = "s".repeat(200);
    const [named] = toNamespaces([searchable("x", long)], new Set());
    assert.ok(named!.description.length <= MAX_NAMESPACE_DESCRIPTION);
    assert.ok(named!.name.length <= 64);
  });

  it("keeps the same namespaces and order whatever order the tools come in", () => {
    const tools = [
      searchable("b", "zeta"),
      searchable("a", "alpha"),
      searchable("c", "zeta"),
      searchable("a", "zeta"),
    ];
    const once = JSON.stringify(toNamespaces(tools, new Set()));
    assert.equal(JSON.stringify(toNamespaces([...tools].reverse(), new Set())), once);
  });
});
