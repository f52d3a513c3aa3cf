import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FileSessionStore } from "@pseudoclaude/core";
import { createTempWorkspace, ScriptedProvider } from "@pseudoclaude/testing";
import { search, wideAgent, wideTool } from "./support/wide-tools.js";

describe("tool search: found tools last the conversation", () => {
  it("keeps found tools when the session is continued, and after a compaction", async (t) => {
    const workspace = await createTempWorkspace();
    t.after(() => workspace.cleanup());
    // The file store, as `--continue` reads it: every entry goes through its own parser.
    const store = new FileSessionStore({ workspace: workspace.root, homeDir: workspace.home });
    const first = await wideAgent([search("select:mcp__jira__export_item"), { text: "found" }], {
      session: { id: "wide-1", store },
    });
    try {
      await first.agent.run("find the jira export");
    } finally {
      await first.agent.close();
    }
    const second = await wideAgent([{ text: "again" }], { session: { id: "wide-1", store } });
    try {
      assert.ok(second.agent.toolOffer().found.some((t) => t.name === "mcp__jira__export_item"));
      await second.agent.run("continue");
      assert.ok(second.provider.requests[0]!.toolNames.includes("mcp__jira__export_item"));
      second.agent.conversation.replace([]);
      assert.ok(second.agent.toolOffer().found.some((t) => t.name === "mcp__jira__export_item"));
      second.agent.conversation.clear();
      assert.deepEqual(second.agent.toolOffer().found, []);
    } finally {
      await second.agent.close();
    }
  });

  it("keeps found tools loaded while the server's list changes", async () => {
    const { agent, provider, source } = await wideAgent([
      search("select:mcp__maps__get_item,mcp__maps__list_item"),
      { text: "found" },
      { text: "after the change" },
    ]);
    try {
      await agent.run("maps");
      source.remove("mcp__maps__list_item");
      source.upsert(wideTool("mcp__maps__route_item", "Route between two places.", "read_only"));
      await agent.run("again");
      const last = provider.requests.at(-1)!;
      assert.ok(last.toolNames.includes("mcp__maps__get_item"));
      assert.ok(!last.toolNames.includes("mcp__maps__list_item"));
      assert.ok(!last.toolNames.includes("mcp__maps__route_item"), "a new tool is deferred");
      assert.ok(agent.toolOffer().deferred.some((t) => t.name === "mcp__maps__route_item"));
    } finally {
      await agent.close();
    }
  });

  it("gives a sub-agent its own list under the same rule", async () => {
    const { agent } = await wideAgent([{ text: "unused" }], { toolSearch: "always" });
    try {
      const child = agent.fork({
        name: "notion-helper",
        instructions: "Use notion.",
        tools: ["mcp__notion__*"],
        provider: new ScriptedProvider([search("search item"), { text: "child done" }], {
          maxTools: 128,
        }),
        parentCallId: "call_1",
      });
      const before = child.toolOffer();
      assert.equal(before.engine, "local", "its narrowed list still has the search tool");
      assert.ok(before.deferred.every((tool) => tool.name.startsWith("mcp__notion__")));
      const run = await child.run("go");
      assert.equal(run.stopReason, "end_turn");
      const found = run.toolCalls[0]!.result.metadata.found as string[];
      assert.ok(found.length > 0);
      assert.ok(
        found.every((name) => name.startsWith("mcp__notion__")),
        found.join(),
      );
      assert.deepEqual(agent.toolOffer().found, [], "the parent found nothing");
    } finally {
      await agent.close();
    }
  });
});
