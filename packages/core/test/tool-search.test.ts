import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, createAgent, defineTool, type ToolDefinition } from "@pseudoclaude/core";
import type { ProviderEvent, ProviderRequest } from "@pseudoclaude/core/provider";
import {
  createTempWorkspace,
  InMemoryToolSource,
  type RecordedRequest,
  ScriptedProvider,
} from "@pseudoclaude/testing";
import { z } from "zod";
import { sourcePlugin } from "./support/scripted-agent.js";
import { builtin, search, wideAgent, wideSet, wideTool } from "./support/wide-tools.js";

describe("tool search: what the model is shown of a wide tool set", () => {
  it("defers MCP tools past the provider's limit, finds one, and no request passes the limit", async () => {
    const { agent, provider } = await wideAgent([
      search("weather forecast city"),
      { tool_calls: [{ name: "mcp__forecast__get_forecast", arguments: { id: "Lisbon" } }] },
      { text: "Sunny." },
    ]);
    try {
      const searches: unknown[] = [];
      agent.on("tool-search", (event) => searches.push(event));
      const result = await agent.run("Weather in Lisbon?");
      assert.equal(result.stopReason, "end_turn");
      assert.deepEqual(provider.requests[0]!.toolNames, ["read_file", "tool_search"]);
      for (const request of provider.requests) assert.ok(request.tools.length <= 128);
      assert.ok(provider.requests[1]!.toolNames.includes("mcp__forecast__get_forecast"));
      const call = result.toolCalls.find((r) => r.name === "mcp__forecast__get_forecast");
      assert.equal(call?.result.ok, true);
      assert.deepEqual(searches, [
        {
          turn: 1,
          engine: "local",
          query: "weather forecast city",
          found: (searches[0] as { found: string[] }).found,
        },
      ]);
      assert.equal((searches[0] as { found: string[] }).found[0], "mcp__forecast__get_forecast");
      const offer = agent.toolOffer();
      assert.equal(offer.engine, "local");
      assert.ok(offer.found.some((tool) => tool.name === "mcp__forecast__get_forecast"));
      assert.equal(offer.deferred.length + offer.found.length, 193);
    } finally {
      await agent.close();
    }
  });

  it("fails the first request without search, as OpenAI does (the baseline this fixes)", async () => {
    const { agent } = await wideAgent([{ text: "never" }], { toolSearch: "never" });
    try {
      await assert.rejects(agent.run("hello"), /array too long.*128.*194/);
    } finally {
      await agent.close();
    }
  });

  it("keeps the start of every request byte-identical across a search", async () => {
    const { agent, provider } = await wideAgent([
      search("create github issue"),
      search("slack archive"),
      { text: "done" },
    ]);
    try {
      await agent.run("Find tools");
      const [first, second, third] = provider.requests as [
        RecordedRequest,
        RecordedRequest,
        RecordedRequest,
      ];
      for (const [before, after] of [
        [first, second],
        [second, third],
      ] as const) {
        assert.equal(after.system, before.system);
        assert.equal(
          JSON.stringify(after.tools.slice(0, before.tools.length)),
          JSON.stringify(before.tools),
        );
        assert.equal(
          JSON.stringify(after.messages.slice(0, before.messages.length)),
          JSON.stringify(before.messages),
        );
        assert.ok(after.tools.length > before.tools.length, "found tools join at the end");
      }
    } finally {
      await agent.close();
    }
  });

  it("never finds a tool the policy denies", async () => {
    const { agent, provider } = await wideAgent([search("github create item"), { text: "done" }], {
      policy: { deny: ["mcp__github__*"] },
    });
    try {
      const result = await agent.run("Open an issue");
      const found = result.toolCalls[0]!.result.metadata.found as string[];
      assert.ok(found.length > 0);
      assert.ok(
        found.every((name) => !name.startsWith("mcp__github__")),
        found.join(),
      );
      assert.ok(!provider.requests[1]!.toolNames.some((name) => name.startsWith("mcp__github")));
      const offer = agent.toolOffer();
      assert.ok(![...offer.deferred, ...offer.found].some((t) => t.name.startsWith("mcp__github")));
    } finally {
      await agent.close();
    }
  });

  it("finds only read-only tools in plan mode", async () => {
    const { agent } = await wideAgent([search("calendar item"), { text: "done" }], {
      policy: { mode: "plan" },
      toolSearch: "always",
    });
    try {
      const result = await agent.run("Plan");
      const found = result.toolCalls[0]!.result.metadata.found as string[];
      assert.ok(found.length > 0);
      const safety = new Map(
        wideSet().map((tool) => [tool.definition.name, tool.definition.safety]),
      );
      assert.ok(
        found.every((name) => safety.get(name) === "read_only"),
        found.join(),
      );
    } finally {
      await agent.close();
    }
  });

  it("still asks before a found tool that needs approval runs", async () => {
    const asked: string[] = [];
    const { agent } = await wideAgent(
      [
        search("select:mcp__stripe__delete_item"),
        { tool_calls: [{ name: "mcp__stripe__delete_item", arguments: { id: "x" } }] },
        { text: "done" },
      ],
      {
        approve: async (request) => {
          asked.push(request.call.name);
          return "deny";
        },
      },
    );
    try {
      const result = await agent.run("Delete");
      assert.deepEqual(asked, ["mcp__stripe__delete_item"]);
      assert.equal(result.toolCalls[1]!.approval, "rejected");
      assert.equal(result.toolCalls[1]!.result.ok, false);
    } finally {
      await agent.close();
    }
  });

  it("always defers deferrable tools in mode always, and pins stay loaded", async () => {
    const { agent, provider } = await wideAgent([{ text: "hi" }], {
      toolSearch: { mode: "always", pin: ["mcp__forecast__*"] },
    });
    try {
      await agent.run("hi");
      assert.deepEqual(provider.requests[0]!.toolNames, [
        "read_file",
        "mcp__forecast__get_forecast",
        "tool_search",
      ]);
    } finally {
      await agent.close();
    }
  });

  it("sends everything when the set fits under the threshold, and defers tools that ask", async () => {
    const few = [wideTool("mcp__a__one", "One.", "read_only")];
    const asks = defineTool({
      name: "rarely_used",
      description: "Rarely used.",
      input: z.object({}),
      safety: "read_only",
      deferLoading: true,
      execute: () => "ok",
    });
    const provider = new ScriptedProvider([{ text: "hi" }]);
    const agent = await createAgent({
      config: false,
      provider,
      tools: [builtin, asks],
      plugins: [sourcePlugin(new InMemoryToolSource("few", few))],
    });
    try {
      await agent.run("hi");
      assert.deepEqual(provider.requests[0]!.toolNames, [
        "read_file",
        "mcp__a__one",
        "tool_search",
      ]);
      assert.equal(agent.toolOffer().deferred[0]?.name, "rarely_used");
    } finally {
      await agent.close();
    }
  });

  it("uses the provider's own search where it has one, and ours where forced", async () => {
    class NativeProvider extends ScriptedProvider {
      readonly nativeToolSearch = true;
      seen: ProviderRequest[] = [];
      override async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
        this.seen.push(request);
        if (this.seen.length === 1)
          yield { type: "tools-found", query: "forecast", names: ["mcp__forecast__get_forecast"] };
        yield* super.stream(request);
      }
    }
    const native = new NativeProvider([{ text: "one" }, { text: "two" }], { maxTools: 128 });
    const { agent } = await wideAgent([], {}, native);
    try {
      await agent.run("forecast");
      await agent.run("again");
      const [first, second] = native.seen as [ProviderRequest, ProviderRequest];
      assert.deepEqual(
        first.tools.map((tool) => tool.name),
        ["read_file"],
      );
      assert.equal(first.toolSearch?.deferred.length, 193);
      assert.deepEqual(
        second.toolSearch?.found.map((tool: ToolDefinition) => tool.name),
        ["mcp__forecast__get_forecast"],
      );
      assert.equal(second.toolSearch?.deferred.length, 192);
      assert.equal(agent.toolOffer().engine, "provider");
    } finally {
      await agent.close();
    }
    const forced = await wideAgent(
      [{ text: "x" }],
      { toolSearch: { engine: "local" } },
      new NativeProvider([{ text: "x" }], { maxTools: 128 }),
    );
    try {
      assert.equal(forced.agent.toolOffer().engine, "local");
    } finally {
      await forced.agent.close();
    }
    const impossible = await wideAgent([{ text: "x" }], { toolSearch: { engine: "provider" } });
    try {
      await assert.rejects(impossible.agent.run("x"), (error: unknown) => {
        assert.ok(ConfigError.is(error));
        assert.match((error as Error).message, /no tool search of its own/);
        return true;
      });
    } finally {
      await impossible.agent.close();
    }
  });

  it("reads the tool_search config section, and says where a mistake is", async () => {
    const workspace = await createTempWorkspace();
    try {
      await workspace.writeConfig("project", "tool_search:\n  mode: never\n");
      const { agent, provider } = await wideAgent(
        [{ text: "x" }],
        {
          workspace: workspace.root,
          config: { homeDir: workspace.home },
        },
        new ScriptedProvider([{ text: "x" }]),
      );
      try {
        await agent.run("x");
        assert.equal(provider.requests[0]!.tools.length, 194);
      } finally {
        await agent.close();
      }
      await workspace.writeConfig("project", "tool_search:\n  mode: sometimes\n");
      const wrong = await wideAgent([], {
        workspace: workspace.root,
        config: { homeDir: workspace.home },
      });
      try {
        const diagnostic = wrong.agent
          .diagnostics()
          .find((d) => d.code === "config_invalid" && d.message.startsWith("tool_search"));
        assert.ok(diagnostic, "a diagnostic names the section");
        assert.equal(diagnostic.line, 2, "the line of the wrong value");
      } finally {
        await wrong.agent.close();
      }
    } finally {
      await workspace.cleanup();
    }
  });
});
