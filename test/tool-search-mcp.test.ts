// Tool search with real MCP servers over real stdio: the tool sets of 20 public servers from
// npm, as recorded (bench/fixtures/tool-sets), 288 tools in all. A model limited to 128 tools a
// request, as OpenAI's is, finds and calls the one it needs through the server that has it.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createAgent } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { type McpServerEntry, mcp } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace, ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";
import { fixture, scratch } from "#mcp-test/mcp-fixtures.js";

const SETS = readdirSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "bench/fixtures/tool-sets"),
)
  .filter((file) => file.endsWith(".json"))
  .map((file) => file.slice(0, -".json".length));

function servers(
  log: string,
  extra: Record<string, Record<string, unknown>> = {},
): Record<string, McpServerEntry> {
  return Object.fromEntries(
    SETS.map((set) => [
      set,
      {
        type: "stdio",
        command: process.execPath,
        args: [fixture("tool-set")],
        env: { FIXTURE_TOOL_SET: set, FIXTURE_LOG: log },
        ...extra[set],
      } as McpServerEntry,
    ]),
  );
}

async function wideMcpAgent(
  steps: ScriptedStep[],
  options: {
    extra?: Record<string, Record<string, unknown>>;
    toolSearch?: "auto" | "never";
    config?: string;
  } = {},
) {
  const logs = await scratch();
  const workspace = await createTempWorkspace();
  if (options.config) await workspace.writeConfig("user", options.config);
  const provider = new ScriptedProvider(steps, { maxTools: 128 });
  const agent = await createAgent({
    workspace: workspace.root,
    config: { homeDir: workspace.home },
    provider,
    // The user says yes to the side-effect call the model makes, as a person at a prompt would.
    approve: async () => "allow",
    plugins: [builtinTools(), mcp({ servers: servers(logs.log, options.extra) })],
    ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}),
  });
  return {
    agent,
    provider,
    logs,
    async close() {
      await agent.close();
      await logs.cleanup();
      await workspace.cleanup();
    },
  };
}

describe("tool search over 20 real MCP servers' tool sets (288 tools)", () => {
  it("sends built-ins and the search tool, finds the GitHub tool, and calls it on its server", async () => {
    const wide = await wideMcpAgent([
      { tool_calls: [{ name: "tool_search", arguments: { query: "create github issue" } }] },
      (request) => {
        assert.ok(request.toolNames.includes("mcp__github__create_issue"), "found and loaded");
        return {
          tool_calls: [
            {
              name: "mcp__github__create_issue",
              arguments: { owner: "acme", repo: "app", title: "Crash on start" },
            },
          ],
        };
      },
      { text: "Issue opened." },
    ]);
    try {
      const total = wide.agent.registry.definitions().filter((d) => d.name.startsWith("mcp__"));
      assert.equal(total.length, 288);
      const result = await wide.agent.run("Open an issue about the crash in acme/app.");
      assert.equal(result.stopReason, "end_turn");
      const [first] = wide.provider.requests;
      assert.ok(first!.toolNames.includes("tool_search"));
      assert.ok(
        !first!.toolNames.some((name) => name.startsWith("mcp__")),
        first!.toolNames.join(),
      );
      for (const request of wide.provider.requests) assert.ok(request.tools.length <= 128);
      const call = result.toolCalls.at(-1)!;
      assert.equal(call.name, "mcp__github__create_issue");
      assert.equal(call.result.ok, true);
      assert.ok(
        (await wide.logs.lines()).some((line) => line.startsWith("call create_issue ")),
        "the github tool set's server ran it under its remote name",
      );
      const offer = wide.agent.toolOffer();
      assert.equal(offer.deferred.length + offer.found.length, 288);
      assert.ok(offer.found.length <= 5, "one search loads a handful");
    } finally {
      await wide.close();
    }
  });

  it("fails at the first request without search, as OpenAI refuses 318 tools", async () => {
    const wide = await wideMcpAgent([{ text: "never reached" }], { toolSearch: "never" });
    try {
      await assert.rejects(wide.agent.run("hello"), /array too long.*128/);
    } finally {
      await wide.close();
    }
  });

  it("follows each server's defer_loading, and the config's tool_search section", async () => {
    const wide = await wideMcpAgent([{ text: "hi" }], {
      extra: { context7: { defer_loading: false }, postgres: { defer_loading: true } },
      config: "tool_search:\n  pin: [mcp__memory__read_graph]\n",
    });
    try {
      await wide.agent.run("hi");
      const sent = wide.provider.requests[0]!.toolNames;
      assert.ok(sent.includes("mcp__context7__resolve-library-id"), sent.join());
      assert.ok(sent.includes("mcp__memory__read_graph"), "pinned");
      assert.ok(!sent.includes("mcp__postgres__query"));
      assert.ok(
        wide.agent.toolOffer().deferred.some((tool) => tool.name === "mcp__postgres__query"),
      );
    } finally {
      await wide.close();
    }
  });
});
