// Tools given inline to createAgent: one defineTool and nothing else (no source, no plugin),
// the model calls it through the policy, its own source kept when it names one; mistakes in
// the list throw at createAgent, and a plugin's tool that names another source is refused.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  createAgent,
  definePlugin,
  defineTool,
  INLINE_TOOL_SOURCE,
  PluginError,
  type Tool,
} from "@pseudoclaude/core";
import { StaticToolSource } from "@pseudoclaude/core/plugin";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { z } from "zod";

const forecast = defineTool({
  name: "get_forecast",
  description: "Forecast for a city.",
  input: z.object({ city: z.string() }),
  safety: "read_only",
  execute: ({ city }) => `Sunny in ${city}.`,
});

describe("inline tools", () => {
  it("runs a tool passed to createAgent, in a source made for it", async () => {
    const deploy = defineTool({
      name: "deploy",
      description: "Deploy.",
      input: z.object({}),
      safety: "side_effect",
      source: "ops",
      execute: () => "deployed",
    });
    const provider = new ScriptedProvider([
      { tool_calls: [{ name: "get_forecast", arguments: { city: "Lisbon" } }] },
      { tool_calls: [{ name: "deploy", arguments: {} }] },
      { text: "done" },
    ]);
    const agent = await createAgent({ tools: [forecast, deploy], provider, config: false });
    try {
      assert.deepEqual(
        agent.sources().map((source) => source.id),
        [INLINE_TOOL_SOURCE, "ops"],
      );
      const result = await agent.run("weather?");
      assert.equal(result.toolCalls[0]?.result.ok, true);
      assert.deepEqual(result.toolCalls[0]?.result.content, [
        { type: "text", text: "Sunny in Lisbon." },
      ]);
      // Inline tools meet the same policy: a side effect without an approver is denied.
      assert.equal(result.toolCalls[1]?.decision.verdict, "ask");
      assert.equal(result.toolCalls[1]?.result.error?.code, "denied");
      assert.equal(agent.registry.get("get_forecast")?.definition.source, "code");
    } finally {
      await agent.close();
    }
  });

  it("throws at createAgent for something that is not a tool, or two tools with one name", async () => {
    await assert.rejects(
      createAgent({ tools: [forecast, { name: "x" } as unknown as Tool], config: false }),
      (error: unknown) =>
        error instanceof PluginError &&
        error.code === "invalid_tool" &&
        /tools\[1\] is not a tool/.test(error.message),
    );
    await assert.rejects(
      createAgent({ tools: [forecast, forecast], config: false }),
      (error: unknown) =>
        error instanceof PluginError && /two tools are named "get_forecast"/.test(error.message),
    );
  });

  it("refuses a plugin's tool whose definition names another source", async () => {
    const agent = await createAgent({
      config: false,
      plugins: [
        definePlugin({
          name: "weather",
          register: (context) => {
            // forecast says source "code"; this source is "weather".
            context.addToolSource(new StaticToolSource("weather", [forecast]));
          },
        }),
      ],
    });
    try {
      assert.equal(agent.registry.get("get_forecast"), undefined);
      const diagnostic = agent.diagnostics().find((d) => d.code === "tool_source_mismatch");
      assert.ok(diagnostic);
      assert.equal(diagnostic.severity, "error");
      assert.match(diagnostic.message, /says its source is "code"; skipped/);
    } finally {
      await agent.close();
    }
  });
});
