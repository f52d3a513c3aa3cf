import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Agent, createAgent } from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { ScriptedProvider } from "@pseudoclaude/testing";
import {
  eventually,
  FIXTURE_ERAS,
  mcpAgent,
  scratch,
  serverPart,
  stdioFixture,
} from "./support/mcp-fixtures.js";

const names = (agent: Agent) =>
  agent.registry
    .list()
    .map((tool) => tool.definition.name)
    .filter((name) => !/^mcp__(list|read|get)_/.test(name))
    .sort();

function stats(agent: Agent, server: string) {
  return agent.sources().find((source) => source.id === `mcp:${server}`)!.status.stats;
}

for (const era of FIXTURE_ERAS) {
  describe(`tools/list pagination, ${era.version}`, () => {
    it("follows nextCursor through every page", async () => {
      const agent = await mcpAgent({
        p: stdioFixture("paginated", { env: { ...era.env, FIXTURE_MODE: "pages" } }),
      });
      try {
        assert.equal(serverPart(agent, "p")?.protocolVersion, era.version);
        assert.deepEqual(names(agent), [
          "mcp__p__get_library",
          "mcp__p__last_tool",
          "mcp__p__resolve_name",
          "mcp__p__search_docs",
        ]);
        assert.deepEqual(stats(agent, "p"), {
          configured: 1,
          connected: 1,
          discovered: 4,
          adapted: 4,
          filtered: 0,
          registered: 4,
        });
      } finally {
        await agent.close();
      }
    });

    it("stops at a repeated cursor with a diagnostic and keeps what it found", async () => {
      const agent = await mcpAgent({
        p: stdioFixture("paginated", { env: { ...era.env, FIXTURE_MODE: "repeat" } }),
      });
      try {
        const diagnostic = agent.diagnostics().find((d) => d.code === "repeated_cursor");
        assert.ok(diagnostic, "repeated cursor reported");
        assert.match(diagnostic.message, /returned cursor "again" again after 2 page/);
        assert.equal(names(agent).length, 2);
        assert.ok(names(agent).includes("mcp__p__first"));
      } finally {
        await agent.close();
      }
    });

    it("stops at the page cap when every page has a new cursor", async () => {
      const agent = await mcpAgent(
        { p: stdioFixture("paginated", { env: { ...era.env, FIXTURE_MODE: "endless" } }) },
        { mcp: { pageCap: 5 } },
      );
      try {
        assert.ok(
          agent.diagnostics().some((d) => d.code === "page_cap" && /after 5 pages/.test(d.message)),
        );
        assert.deepEqual(names(agent), [
          "mcp__p__page_0",
          "mcp__p__page_1",
          "mcp__p__page_2",
          "mcp__p__page_3",
          "mcp__p__page_4",
        ]);
      } finally {
        await agent.close();
      }
    });

    it("treats an empty-string cursor as a real cursor, not the end", async () => {
      const log = await scratch();
      const agent = await mcpAgent({
        p: stdioFixture("paginated", {
          env: { ...era.env, FIXTURE_MODE: "empty-cursor", FIXTURE_LOG: log.log },
        }),
      });
      try {
        assert.deepEqual(names(agent), ["mcp__p__one", "mcp__p__two"]);
        assert.deepEqual(await log.lines(), ["list <none>", 'list ""']);
      } finally {
        await agent.close();
        await log.cleanup();
      }
    });

    it("drops a name repeated across pages with a diagnostic", async () => {
      const agent = await mcpAgent({
        p: stdioFixture("paginated", { env: { ...era.env, FIXTURE_MODE: "duplicates" } }),
      });
      try {
        assert.deepEqual(names(agent), ["mcp__p__a", "mcp__p__b", "mcp__p__same"]);
        assert.ok(
          agent
            .diagnostics()
            .some((d) => d.code === "duplicate_remote_tool" && d.item === "p/same"),
        );
        assert.equal(stats(agent, "p").discovered, 4);
        assert.equal(stats(agent, "p").adapted, 3);
      } finally {
        await agent.close();
      }
    });
  });
}

describe("untrusted annotations", () => {
  it("keeps a tool that claims to be read-only as side_effect unless the user trusts the server", async () => {
    const agent = await mcpAgent({ liar: stdioFixture("lying") }, { policy: { mode: "plan" } });
    try {
      const tool = agent.registry.get("mcp__liar__delete_everything")!.definition;
      assert.equal(tool.safety, "side_effect");
      assert.equal(tool.annotations?.readOnlyHint, true, "the hint is still carried as data");
      assert.deepEqual(
        agent.offeredTools().filter((t) => t.name.startsWith("mcp__liar__")),
        [],
        "plan mode offers none of them",
      );
      const call = await agent.callTool("mcp__liar__delete_everything", {});
      assert.equal(call.decision.verdict, "deny");
    } finally {
      await agent.close();
    }
  });

  it("honours the hint only with trust_annotations, and read_only_tools declares single tools", async () => {
    const agent = await mcpAgent({
      trusted: stdioFixture("lying", { trust_annotations: true }),
      declared: stdioFixture("lying", { read_only_tools: ["honest_read"] }),
    });
    try {
      const safety = (name: string) => agent.registry.get(name)!.definition.safety;
      assert.equal(safety("mcp__trusted__delete_everything"), "read_only");
      assert.equal(safety("mcp__trusted__plain"), "side_effect");
      assert.equal(safety("mcp__declared__honest_read"), "read_only");
      assert.equal(safety("mcp__declared__delete_everything"), "side_effect");
    } finally {
      await agent.close();
    }
  });

  it("warns about read_only_tools entries that name no tool", async () => {
    const agent = await mcpAgent({
      s: stdioFixture("lying", { read_only_tools: ["honest_raed"] }),
    });
    try {
      assert.ok(
        agent
          .diagnostics()
          .some((d) => d.code === "unknown_read_only_tool" && /honest_raed/.test(d.message)),
      );
    } finally {
      await agent.close();
    }
  });

  it("fills an empty description and an empty schema", async () => {
    const agent = await mcpAgent({ s: stdioFixture("lying") });
    try {
      const plain = agent.registry.get("mcp__s__plain")!.definition;
      assert.equal(plain.description, 'Tool "plain" from MCP server "s".');
      assert.deepEqual(plain.inputSchema, { type: "object" });
      assert.deepEqual(plain.meta, { server: "s", remote_name: "plain" });
      const invalid = agent.diagnostics().find((d) => d.code === "invalid_remote_tool");
      assert.match(invalid!.message, /invalid tool "broken" \(inputSchema\.type: /);
      assert.equal(agent.registry.get("mcp__s__broken"), undefined);
      assert.equal(
        agent.registry.list().filter((t) => t.definition.name.startsWith("mcp__s__")).length,
        3,
      );
    } finally {
      await agent.close();
    }
  });
});

describe("tool names", () => {
  it("makes names valid, reports renames and skips an empty name, but calls with the remote name", async () => {
    const log = await scratch();
    const agent = await mcpAgent(
      { n: stdioFixture("names", { env: { FIXTURE_LOG: log.log } }) },
      { policy: { mode: "bypass" } },
    );
    try {
      const all = names(agent);
      assert.ok(
        all.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name)),
        all.join(),
      );
      assert.equal(new Set(all).size, all.length, "no collisions");
      assert.equal(all.length, 9, "ten listed, the empty name skipped");
      assert.ok(all.includes("mcp__n__good_name") && all.includes("mcp__n__search_docs"));
      assert.ok(agent.diagnostics().some((d) => d.code === "empty_tool_name"));
      const renames = agent.diagnostics().filter((d) => d.code === "tool_renamed");
      assert.equal(renames.length, 6);
      const dotted = agent.registry
        .list()
        .find((tool) => tool.definition.meta?.remote_name === "search.docs")!;
      assert.match(dotted.definition.name, /^mcp__n__search_docs_[0-9a-f]{8}$/);
      const result = await agent.callTool(dotted.definition.name, {});
      assert.deepEqual(result.result.content, [{ type: "text", text: "remote name: search.docs" }]);
      assert.deepEqual(await log.lines(), ["call search.docs"]);
    } finally {
      await agent.close();
      await log.cleanup();
    }
  });
});

describe("tool filters", () => {
  it("keeps only allowed remote names and drops denied ones, counting them as filtered", async () => {
    const agent = await mcpAgent({
      b: stdioFixture("behaviours", { tools: { allow: ["e*", "p*", "c*"], deny: ["crash"] } }),
    });
    try {
      assert.deepEqual(names(agent), ["mcp__b__echo", "mcp__b__pid", "mcp__b__progress"]);
      assert.equal(stats(agent, "b").filtered, 16, "the other 16 of its 19 tools");
    } finally {
      await agent.close();
    }
  });
});

describe("list_changed", () => {
  it("applies added and removed tools to the live registry with events", async () => {
    const provider = new ScriptedProvider([
      { tool_calls: [{ name: "mcp__b__add_tool", arguments: { name: "fresh" } }] },
      { text: "added" },
    ]);
    const agent = await createAgent({
      config: false,
      provider,
      policy: { mode: "bypass" },
      plugins: [mcp({ servers: { b: stdioFixture("behaviours") }, listChangedDebounceMs: 10 })],
    });
    const added: string[] = [];
    const removed: string[] = [];
    agent.registry.on("tool-added", ({ definition }) => added.push(definition.name));
    agent.registry.on("tool-removed", ({ definition }) => removed.push(definition.name));
    try {
      const run = agent.run("add a tool");
      await eventually(() => added.includes("mcp__b__fresh"), 5_000, "tool-added event");
      const result = await run;
      assert.equal(result.toolCalls[0]!.result.ok, true);
      const second = await agent.callTool("mcp__b__fresh", {});
      assert.equal(second.result.ok, true);
      await agent.callTool("mcp__b__remove_tool", { name: "fresh" });
      await eventually(() => removed.includes("mcp__b__fresh"), 5_000, "tool-removed event");
      assert.equal(agent.registry.get("mcp__b__fresh"), undefined);
    } finally {
      await agent.close();
    }
  });

  it("lets the next turn see a tool added during the previous one", async () => {
    const provider = new ScriptedProvider([
      { tool_calls: [{ name: "mcp__b__add_tool", arguments: { name: "later" } }] },
      { tool_calls: [{ name: "mcp__b__progress", arguments: {} }] },
      { text: "done" },
    ]);
    const agent = await createAgent({
      config: false,
      provider,
      policy: { mode: "bypass" },
      plugins: [mcp({ servers: { b: stdioFixture("behaviours") }, listChangedDebounceMs: 1 })],
    });
    try {
      await agent.run("go");
      // The server announced the new tool while the call ran: the very next request offers it.
      assert.ok(!provider.requests[0]!.toolNames.includes("mcp__b__later"));
      assert.ok(
        provider.requests[1]!.toolNames.includes("mcp__b__later"),
        provider.requests[1]!.toolNames.join(", "),
      );
    } finally {
      await agent.close();
    }
  });
});
