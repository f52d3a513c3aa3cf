// Structured output in the kernel, with the scripted provider: a typed `output` after tool
// calls, one repair with the issues, a typed failure, the JSON Schema form, and no output when
// the run stops early. The providers' native mechanisms are tested in provider-*.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  createAgent,
  definePlugin,
  jsonSchemaOutput,
  StructuredOutputError,
  UsageError,
} from "@pseudoclaude/core";
import {
  createTestTool,
  InMemoryToolSource,
  recordEvents,
  ScriptedProvider,
  type ScriptedStep,
} from "@pseudoclaude/testing";
import { z } from "zod";

const Weather = z.object({
  city: z.string().min(1),
  celsius: z.number(),
  advice: z.enum(["umbrella", "sunglasses"]).optional(),
});

async function scriptedAgent(steps: ScriptedStep[]) {
  const provider = new ScriptedProvider(steps);
  const forecast = createTestTool({
    name: "get_forecast",
    description: "Forecast for a city.",
    safety: "read_only",
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
    run: () => "Sunny, 21°C.",
  });
  const agent = await createAgent({
    config: false,
    provider,
    plugins: [
      definePlugin({
        name: "tools",
        register: (context) =>
          void context.addToolSource(new InMemoryToolSource("memory", [forecast])),
      }),
    ],
  });
  return { agent, provider, forecast };
}

describe("structured output", () => {
  it("returns the validated, typed output after the model used tools", async () => {
    const { agent, provider, forecast } = await scriptedAgent([
      { tool_calls: [{ name: "get_forecast", arguments: { city: "Lisbon" } }] },
      { output: { city: "Lisbon", celsius: 21, advice: "sunglasses" } },
    ]);
    try {
      const result = await agent.run("Weather in Lisbon?", { output: Weather });
      // Typed from the schema: this line would not compile if `output` were `unknown`.
      const celsius: number = result.output.celsius;
      assert.equal(celsius, 21);
      assert.deepEqual(result.output, { city: "Lisbon", celsius: 21, advice: "sunglasses" });
      assert.equal(result.stopReason, "end_turn");
      assert.equal(forecast.calls.length, 1, "tools ran first");
      const format = provider.requests[0]?.output;
      assert.equal(format?.name, "output");
      assert.deepEqual(format?.schema.required, ["city", "celsius"]);
      assert.equal(format?.schema.$schema, undefined, "no dialect marker on the wire");
      assert.equal(provider.requests[1]?.output?.name, "output", "every turn carries it");
    } finally {
      await agent.close();
    }
  });

  it("sends a wrong answer back once with its issues, and takes the repair", async () => {
    const { agent, provider } = await scriptedAgent([
      { output: { city: "", celsius: "warm" } },
      { output: { city: "Lisbon", celsius: 21 } },
    ]);
    const events = recordEvents(agent);
    try {
      const result = await agent.run("Weather?", { output: Weather });
      assert.deepEqual(result.output, { city: "Lisbon", celsius: 21 });
      assert.equal(result.turns, 2);
      const repair = provider.requests[1]?.messages.at(-1);
      assert.equal(repair?.role, "user");
      const text = String(repair?.role === "user" ? repair.content : "");
      assert.match(text, /does not match the required output schema "output"/);
      assert.match(text, /^- city: Too small: expected string to have >=1 characters$/m);
      assert.match(text, /^- celsius: Invalid input: expected number, received string$/m);
      const repairs = events.filter(([name]) => name === "output-repair");
      assert.equal(repairs.length, 1);
      assert.equal((repairs[0]?.[1] as { issues: unknown[] } | undefined)?.issues.length, 2);
    } finally {
      await agent.close();
    }
  });

  it("ends with a typed error carrying the raw text and issues when the repair fails too", async () => {
    const { agent } = await scriptedAgent([
      { text: "It is sunny." },
      { output: { city: "Lisbon" } },
      { text: "never asked" },
    ]);
    try {
      const error = await agent.run("Weather?", { output: Weather }).then(
        () => assert.fail("the run should fail"),
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof StructuredOutputError);
      assert.equal(error.code, "output_invalid");
      assert.equal(error.fault, "model");
      assert.equal(error.raw, '{"city":"Lisbon"}');
      assert.deepEqual(error.issues, [
        { path: "celsius", message: "Invalid input: expected number, received undefined" },
      ]);
      assert.match(error.message, /even after a repair: celsius: Invalid input/);
    } finally {
      await agent.close();
    }
  });

  it("takes a JSON Schema, validated with Ajv, and names nested paths", async () => {
    const Invoice = jsonSchemaOutput<{ total: number; lines: Array<{ sku: string }> }>(
      {
        type: "object",
        properties: {
          total: { type: "number", minimum: 0 },
          lines: {
            type: "array",
            items: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
          },
        },
        required: ["total", "lines"],
        additionalProperties: false,
      },
      { name: "invoice", description: "The invoice totals." },
    );
    const { agent, provider } = await scriptedAgent([
      { output: { total: -1, lines: [{ sku: "a" }, {}], extra: true } },
      { text: '```json\n{"total": 12.5, "lines": [{"sku": "a"}]}\n```' },
    ]);
    try {
      const result = await agent.run("Invoice?", { output: Invoice });
      const total: number = result.output.total;
      assert.equal(total, 12.5, "a fenced JSON answer is read");
      assert.equal(provider.requests[0]?.output?.name, "invoice");
      assert.equal(provider.requests[0]?.output?.description, "The invoice totals.");
      const repair = provider.requests[1]?.messages.at(-1);
      const text = String(repair?.role === "user" ? repair.content : "");
      assert.match(text, /^- \(answer\): must NOT have additional properties \(extra\)$/m);
      assert.match(text, /^- total: must be >= 0$/m);
      assert.match(text, /^- lines\.1: must have required property 'sku' \(sku\)$/m);
    } finally {
      await agent.close();
    }
  });

  it("says an answer that is not JSON is not JSON", async () => {
    const { agent, provider } = await scriptedAgent([
      { text: "Sunny and warm." },
      { output: { city: "Oslo", celsius: -3 } },
    ]);
    try {
      const result = await agent.run("Weather?", { output: Weather });
      assert.equal(result.output.city, "Oslo");
      const repair = provider.requests[1]?.messages.at(-1);
      assert.match(
        String(repair?.role === "user" ? repair.content : ""),
        /- \(answer\): is not JSON/,
      );
    } finally {
      await agent.close();
    }
  });

  it("fails with output_missing when the run stops before a final answer", async () => {
    const { agent } = await scriptedAgent([
      { tool_calls: [{ name: "get_forecast", arguments: { city: "Rome" } }] },
    ]);
    try {
      await assert.rejects(
        agent.run("Weather?", { output: Weather, maxTurns: 1 }),
        (error: unknown) =>
          error instanceof StructuredOutputError &&
          error.code === "output_missing" &&
          error.details.stopReason === "max_turns",
      );
    } finally {
      await agent.close();
    }
  });

  it("gives the repair its turn even when it is the last one allowed", async () => {
    const { agent } = await scriptedAgent([
      { text: "nope" },
      { output: { city: "Rome", celsius: 30 } },
    ]);
    try {
      const result = await agent.run("Weather?", { output: Weather, maxTurns: 1 });
      assert.equal(result.output.celsius, 30);
    } finally {
      await agent.close();
    }
  });

  it("refuses something that is not a schema, and a name the APIs would refuse", async () => {
    const { agent } = await scriptedAgent([]);
    try {
      await assert.rejects(
        agent.run("x", { output: { type: "object" } as never }),
        (error: unknown) => error instanceof UsageError && error.code === "output_schema_invalid",
      );
      await assert.rejects(
        agent.run("x", { output: jsonSchemaOutput({ type: "object" }, { name: "my output!" }) }),
        /must be 1 to 64 letters/,
      );
    } finally {
      await agent.close();
    }
  });

  it("without a schema, a run has no output", async () => {
    const { agent } = await scriptedAgent([{ text: "Plain." }]);
    try {
      const result = await agent.run("hi");
      assert.equal(result.output, undefined);
      assert.equal(result.text, "Plain.");
    } finally {
      await agent.close();
    }
  });
});
