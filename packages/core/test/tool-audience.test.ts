// Who may call a tool (`ToolDefinition.audience`, MCP Apps' `_meta.ui.visibility`), on every
// path of the kernel: what a model is sent, what search finds, what the model's call gets, and
// what a view's call (`callTool(..., { fromApp })`) may reach.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAgent, defineTool } from "@pseudoclaude/core";
import { InMemoryToolSource, ScriptedProvider } from "@pseudoclaude/testing";
import { z } from "zod";
import { sourcePlugin } from "./support/scripted-agent.js";

const ran: string[] = [];
const counterTool = (name: string, audience?: Array<"model" | "app">, deferLoading?: boolean) =>
  defineTool({
    name,
    description: `The counter's ${name.replace(/_/g, " ")} tool.`,
    input: z.object({}),
    safety: "side_effect",
    source: "counter",
    ...(audience ? { audience } : {}),
    ...(deferLoading ? { deferLoading } : {}),
    execute: () => {
      ran.push(name);
      return `${name} done`;
    },
  });

const otherTool = defineTool({
  name: "other_echo",
  description: "Another source's tool.",
  input: z.object({}),
  safety: "read_only",
  source: "other",
  execute: () => {
    ran.push("other_echo");
    return "echo";
  },
});

async function counterAgent(steps: ConstructorParameters<typeof ScriptedProvider>[0]) {
  const provider = new ScriptedProvider(steps);
  const agent = await createAgent({
    config: false,
    provider,
    policy: { mode: "bypass" },
    toolSearch: "always",
    plugins: [
      sourcePlugin(
        new InMemoryToolSource("counter", [
          counterTool("counter_reset", ["app"], true),
          counterTool("counter_announce", ["model"]),
          counterTool("counter_show"),
          counterTool("counter_reset_history", undefined, true),
        ]),
      ),
      sourcePlugin(new InMemoryToolSource("other", [otherTool])),
    ],
  });
  return { agent, provider };
}

describe("tool audience", () => {
  it("never shows an app-only tool to the model: not sent, not found by search, its call refused", async () => {
    ran.length = 0;
    const { agent, provider } = await counterAgent([
      { tool_calls: [{ name: "tool_search", arguments: { query: "counter reset" } }] },
      { tool_calls: [{ name: "counter_reset", arguments: {} }] },
      { text: "done" },
    ]);
    try {
      assert.deepEqual(
        agent.registry.get("counter_reset")?.definition.audience,
        ["app"],
        "the registry holds it, with its audience",
      );
      assert.ok(!agent.offeredTools().some((tool) => tool.name === "counter_reset"));
      const result = await agent.run("Reset the counter.");
      for (const request of provider.requests)
        assert.ok(!request.toolNames.includes("counter_reset"), "never in a request");
      // The search finds the deferred model tool of the same words, never the app-only one.
      assert.ok(provider.requests[2]!.toolNames.includes("counter_reset_history"));
      const search = result.toolCalls.find((call) => call.name === "tool_search");
      assert.doesNotMatch(JSON.stringify(search?.result.content), /counter_reset(?!_history)/);
      const call = result.toolCalls.find((record) => record.name === "counter_reset");
      assert.equal(call?.result.ok, false);
      assert.equal(call?.result.ok === false && call.result.error.code, "denied");
      assert.deepEqual(call?.decision.matched, { kind: "audience", caller: "model" });
      assert.match(call?.decision.reason ?? "", /for its app's view only/);
      assert.deepEqual(ran, [], "nothing ran");
    } finally {
      await agent.close();
    }
  });

  it("lets a view call its own source's app tools, and refuses model-only and other sources' tools", async () => {
    ran.length = 0;
    const { agent } = await counterAgent([]);
    const fromApp = { source: "counter" };
    try {
      const own = await agent.callTool("counter_reset", {}, { fromApp });
      assert.equal(own.result.ok, true, JSON.stringify(own.result));
      const both = await agent.callTool("counter_show", {}, { fromApp });
      assert.equal(both.result.ok, true, "a tool that declares no audience is the view's too");
      const modelOnly = await agent.callTool("counter_announce", {}, { fromApp });
      assert.equal(modelOnly.result.ok, false);
      assert.deepEqual(modelOnly.decision.matched, { kind: "audience", caller: "app" });
      assert.match(modelOnly.decision.reason, /not visible to apps/);
      const foreign = await agent.callTool("other_echo", {}, { fromApp });
      assert.equal(foreign.result.ok, false);
      assert.match(foreign.decision.reason, /only its own server's tools, not "other_echo"/);
      // A person's own call is not a view's: any tool, whatever its audience.
      const person = await agent.callTool("counter_reset", {});
      assert.equal(person.result.ok, true);
      assert.deepEqual(ran, ["counter_reset", "counter_show", "counter_reset"]);
    } finally {
      await agent.close();
    }
  });
});
