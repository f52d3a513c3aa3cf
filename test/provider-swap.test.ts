// The swap is one line: the same agent code, the same scenario (a tool call, then a final
// answer) and the same RunResult with the scripted provider, the Anthropic provider and the
// OpenAI provider (Chat Completions and Responses), the real SDKs talking to local servers.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  createAgent,
  definePlugin,
  defineTool,
  type Provider,
  type RunResult,
} from "@pseudoclaude/core";
import { anthropic } from "@pseudoclaude/provider-anthropic";
import { openai } from "@pseudoclaude/provider-openai";
import { InMemoryToolSource, ScriptedProvider } from "@pseudoclaude/testing";
import { z } from "zod";
import { anthropicStream } from "./fixtures/providers/anthropic-wire.js";
import { chatStream, responsesStream } from "./fixtures/providers/openai-wire.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";

/** The agent code under test: everything but the provider is fixed. */
async function runScenario(provider: Provider): Promise<{ result: RunResult; cities: string[] }> {
  const cities: string[] = [];
  const weather = definePlugin({
    name: "weather",
    register(context) {
      const forecast = defineTool({
        name: "get_forecast",
        description: "Forecast for a city.",
        input: z.object({ city: z.string() }),
        safety: "read_only",
        source: "weather",
        execute: ({ city }) => {
          cities.push(city);
          return `Sunny in ${city}, 21°C.`;
        },
      });
      context.addToolSource(new InMemoryToolSource("weather", [forecast]));
    },
  });
  const agent = await createAgent({ provider, plugins: [weather], config: false });
  try {
    return { result: await agent.run("Weather in Lisbon?"), cities };
  } finally {
    await agent.close();
  }
}

/** What the model does in the scenario, in each API's terms. */
const CALL = { id: "call_lisbon", name: "get_forecast", input: { city: "Lisbon" } };
const ANSWER = "It will be sunny in Lisbon.";

describe("swapping the provider is one line", () => {
  let anthropicServer: WireServer;
  let openaiServer: WireServer;
  before(async () => {
    [anthropicServer, openaiServer] = await Promise.all([
      startWireServer(),
      startWireServer("/v1"),
    ]);
  });
  after(() => Promise.all([anthropicServer.close(), openaiServer.close()]));

  const cases: Array<{ name: string; provider: () => Provider }> = [
    {
      name: "scripted",
      provider: () =>
        new ScriptedProvider([
          { tool_calls: [{ id: CALL.id, name: CALL.name, arguments: CALL.input }] },
          { text: ANSWER },
        ]),
    },
    {
      name: "anthropic",
      provider: () => {
        anthropicServer.reply(
          anthropicStream({ toolCalls: [CALL] }),
          anthropicStream({ text: ANSWER }),
        );
        return anthropic({ baseURL: anthropicServer.baseURL, apiKey: "test-key", env: {} });
      },
    },
    {
      name: "openai (Chat Completions)",
      provider: () => {
        openaiServer.reply(chatStream({ toolCalls: [CALL] }), chatStream({ text: ANSWER }));
        return openai({ baseURL: openaiServer.baseURL, apiKey: "test-key", env: {} });
      },
    },
    {
      name: "openai (Responses)",
      provider: () => {
        openaiServer.reply(
          responsesStream({ toolCalls: [CALL] }),
          responsesStream({ text: ANSWER }),
        );
        return openai({
          api: "responses",
          baseURL: openaiServer.baseURL,
          apiKey: "test-key",
          env: {},
        });
      },
    },
  ];

  for (const { name, provider } of cases) {
    it(`runs the tool call and the final answer with the ${name} provider`, async () => {
      const { result, cities } = await runScenario(provider());
      assert.deepEqual(cities, ["Lisbon"]);
      assert.equal(result.text, ANSWER);
      assert.equal(result.turns, 2);
      assert.equal(result.stopReason, "end_turn");
      assert.deepEqual(
        result.toolCalls.map((call) => ({
          id: call.id,
          name: call.name,
          arguments: call.arguments,
          decision: call.decision.verdict,
          ok: call.result.ok,
          content: call.result.content,
        })),
        [
          {
            id: "call_lisbon",
            name: "get_forecast",
            arguments: { city: "Lisbon" },
            decision: "allow",
            ok: true,
            content: [{ type: "text", text: "Sunny in Lisbon, 21°C." }],
          },
        ],
      );
      assert.deepEqual(
        Object.keys(result.usage).sort(),
        ["inputTokens", "outputTokens", ...cacheKeys(name)].sort(),
      );
      assert.equal(
        anthropicServer.pending() + openaiServer.pending(),
        0,
        "the model was asked exactly twice",
      );
    });
  }
});

/** Which cache counters each API reports (the scripted model reports none). */
function cacheKeys(name: string): string[] {
  if (name === "scripted") return [];
  if (name === "anthropic") return ["cacheReadTokens", "cacheWriteTokens"];
  return ["cacheReadTokens"];
}
