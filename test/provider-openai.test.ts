// The OpenAI provider with the real `openai` SDK against a local server of ours that speaks
// the Chat Completions and Responses wire formats, streaming included: the provider contract
// suite on both APIs, then what only each has. Each test asserts what the provider sent and
// what the agent got.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { FileSessionStore, jsonSchemaOutput, StructuredOutputError } from "@pseudoclaude/core";
import { wireToolName } from "@pseudoclaude/core/provider";
import { openai } from "@pseudoclaude/provider-openai";
import { createTestTool, describeProviderContract } from "@pseudoclaude/testing";
import { z } from "zod";
import { chatStream, responsesStream } from "./fixtures/providers/openai-wire.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import { collect, PNG_1X1, providerAgent } from "./support/provider-agents.js";
import { OPENAI_TEST_KEY } from "./support/provider-harness-openai.js";
import { openaiChatHarness } from "./support/provider-harness-openai-chat.js";
import { openaiResponsesHarness } from "./support/provider-harness-openai-responses.js";

const Weather = z
  .object({
    city: z.string().min(1),
    celsius: z.number(),
    advice: z.enum(["umbrella", "sunglasses"]).optional(),
  })
  .meta({ title: "weather" });
const SEARCH_WIRE = wireToolName("mcp__docs.v2__search");

describeProviderContract(openaiChatHarness);
describeProviderContract(openaiResponsesHarness);

describe("OpenAI provider against a local Chat Completions server", () => {
  let server: WireServer;
  before(async () => {
    server = await startWireServer("/v1");
  });
  afterEach(() => {
    assert.equal(server.pending(), 0, "every scripted reply was used");
    server.reset();
  });
  after(() => server.close());

  const provider = (options: Parameters<typeof openai>[0] = {}) =>
    openai({
      baseURL: server.baseURL,
      apiKey: OPENAI_TEST_KEY,
      maxRetries: 0,
      env: {},
      ...options,
    });

  it("sends the output limit under the field the server knows", async () => {
    server.reply(chatStream({ text: "a" }), chatStream({ text: "b" }));
    await collect(provider({ maxTokens: 300 }), { messages: [{ role: "user", content: "hi" }] });
    await collect(provider({ maxTokens: 300, maxTokensField: "max_tokens", streamUsage: false }), {
      messages: [{ role: "user", content: "hi" }],
    });
    const [current, older] = server.requests.map((request) => request.body);
    assert.equal(current.max_completion_tokens, 300);
    assert.equal(older.max_tokens, 300);
    assert.equal(older.stream_options, undefined);
  });

  it("turns images and audio in tool results into counted placeholders, and marks failures", async () => {
    const agent = await providerAgent(provider());
    try {
      server.reply(
        chatStream({
          toolCalls: [
            { id: "call_chart", name: "render_chart", input: {} },
            { id: "call_flaky", name: "flaky", input: {} },
          ],
        }),
        chatStream({ text: "I could not see the chart." }),
      );
      const result = await agent.run("Draw it");
      const [chart, flaky] = result.toolCalls;
      assert.deepEqual(chart?.result.metadata.content_placeholders, { image: 1, audio: 1 });
      assert.equal(flaky?.result.ok, false);
      const messages = server.requests[1]?.body.messages;
      assert.equal(messages[2].role, "assistant");
      assert.equal(messages[2].content, null, "a turn of tool calls alone has no text content");
      assert.deepEqual(messages.slice(-2), [
        {
          role: "tool",
          tool_call_id: "call_chart",
          content:
            "Chart rendered.\n\n[image content: image/png, 70 bytes, not shown to this model]\n\n[audio content: audio/wav, 12 bytes, not shown to this model]",
        },
        {
          role: "tool",
          tool_call_id: "call_flaky",
          content: "[error: tool_error] The flaky tool failed on purpose.",
        },
      ]);
    } finally {
      await agent.close();
    }
  });

  it("sends strict schemas when asked, and removes the nulls strict mode made the model send", async () => {
    const units = createTestTool({
      name: "convert",
      description: "Convert a temperature.",
      safety: "read_only",
      inputSchema: {
        type: "object",
        properties: {
          value: { type: "number", minimum: -273.15 },
          to: { type: "string", enum: ["C", "F"] },
        },
        required: ["value"],
        additionalProperties: false,
      },
      run: (args) => JSON.stringify(args),
    });
    const agent = await providerAgent(provider({ strict: true }), { units });
    try {
      server.reply(
        chatStream({
          toolCalls: [{ id: "call_1", name: "convert", input: { value: 21, to: null } }],
        }),
        chatStream({ text: "Done." }),
      );
      const result = await agent.run("Convert 21");
      assert.deepEqual(units.calls[0]?.args, { value: 21 }, "the optional null is gone");
      assert.equal(result.toolCalls[0]?.result.ok, true);
      const sent = server.requests[0]?.body.tools[0].function;
      assert.equal(sent.strict, true);
      assert.deepEqual(sent.parameters, {
        type: "object",
        properties: {
          value: { type: "number", description: "(minimum: -273.15)" },
          to: { type: ["string", "null"], enum: ["C", "F", null] },
        },
        required: ["value", "to"],
        additionalProperties: false,
      });
      assert.deepEqual(
        units.definition.inputSchema.required,
        ["value"],
        "the tool's own schema is untouched",
      );
    } finally {
      await agent.close();
    }
  });

  it("asks for a strict json_schema response format, and reads the answer back without the added nulls", async () => {
    const agent = await providerAgent(provider());
    try {
      server.reply(chatStream({ text: '{"city":"Lisbon","celsius":21,"advice":null}' }));
      const result = await agent.run("Weather?", { output: Weather });
      assert.deepEqual(
        result.output,
        { city: "Lisbon", celsius: 21 },
        "the null strict mode added is gone",
      );
      assert.deepEqual(server.requests[0]?.body.response_format, {
        type: "json_schema",
        json_schema: {
          name: "weather",
          strict: true,
          schema: {
            type: "object",
            properties: {
              city: { type: "string", description: "(minLength: 1)" },
              celsius: { type: "number" },
              advice: { type: ["string", "null"], enum: ["umbrella", "sunglasses", null] },
            },
            required: ["city", "celsius", "advice"],
            additionalProperties: false,
          },
        },
      });
    } finally {
      await agent.close();
    }
  });

  it("sends a schema strict mode cannot express as it is, and fails typed after one repair", async () => {
    const agent = await providerAgent(provider());
    const Free = jsonSchemaOutput({ type: "object", additionalProperties: { type: "number" } });
    try {
      server.reply(chatStream({ text: '{"a":"x"}' }), chatStream({ text: '{"a":"still x"}' }));
      const error = await agent.run("Numbers?", { output: Free }).then(
        () => assert.fail("the run should fail"),
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof StructuredOutputError);
      assert.equal(error.code, "output_invalid");
      assert.equal(error.raw, '{"a":"still x"}');
      assert.deepEqual(error.issues, [{ path: "a", message: "must be number" }]);
      const [first, second] = server.requests.map((request) => request.body);
      assert.equal(first.response_format.json_schema.strict, false);
      assert.deepEqual(first.response_format.json_schema.schema, {
        type: "object",
        additionalProperties: { type: "number" },
      });
      assert.deepEqual(second.messages.at(-1), {
        role: "user",
        content:
          'Your final answer does not match the required output schema "output":\n- a: must be number\nAnswer again with only the corrected JSON value, nothing else.',
      });
    } finally {
      await agent.close();
    }
  });
});

describe("OpenAI provider against a local Responses API server", () => {
  let server: WireServer;
  before(async () => {
    server = await startWireServer("/v1");
  });
  afterEach(() => {
    assert.equal(server.pending(), 0, "every scripted reply was used");
    server.reset();
  });
  after(() => server.close());

  const provider = (options: Parameters<typeof openai>[0] = {}) =>
    openai({
      api: "responses",
      baseURL: server.baseURL,
      apiKey: OPENAI_TEST_KEY,
      maxRetries: 0,
      env: {},
      ...options,
    });

  it("streams the reasoning summary and sends the encrypted reasoning back before the calls", async () => {
    const agent = await providerAgent(provider({ reasoningEffort: "low" }));
    const reasoning: string[] = [];
    agent.on("reasoning-delta", ({ text }) => reasoning.push(text));
    try {
      server.reply(
        responsesStream({
          reasoning: { summary: ["Need the ", "chart."], encrypted: "gAAAAB-opaque" },
          toolCalls: [{ id: "call_r", name: "render_chart", input: {} }],
        }),
        responsesStream({ text: "Done." }),
      );
      const result = await agent.run("Chart please");
      assert.equal(result.text, "Done.");
      assert.deepEqual(reasoning, ["Need the ", "chart."]);
      const first = server.requests[0]?.body;
      assert.deepEqual(first.reasoning, { effort: "low", summary: "auto" });
      assert.deepEqual(first.include, ["reasoning.encrypted_content"]);
      const input = server.requests[1]?.body.input;
      assert.equal(input[1].type, "reasoning");
      assert.equal(input[1].encrypted_content, "gAAAAB-opaque");
      assert.equal(input[2].type, "function_call");
    } finally {
      await agent.close();
    }
  });

  it("resumes a saved session with the encrypted reasoning and the call pair intact", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), "pc-sessions-"));
    const session = { id: "chart", store: new FileSessionStore({ workspace: folder, folder }) };
    try {
      server.reply(
        responsesStream({
          reasoning: { summary: ["Need the chart."], encrypted: "gAAAAB-opaque" },
          toolCalls: [{ id: "call_c", name: "render_chart", input: {} }],
        }),
        responsesStream({ text: "Done." }),
        responsesStream({ text: "Again." }),
      );
      const first = await providerAgent(provider({ reasoningEffort: "low" }), undefined, {
        session,
      });
      await first.run("Chart please");
      await first.close();
      const resumed = await providerAgent(provider({ reasoningEffort: "low" }), undefined, {
        session,
      });
      try {
        await resumed.run("Once more");
      } finally {
        await resumed.close();
      }
      const input = server.requests[2]?.body.input;
      assert.deepEqual(
        input.map((item: { type?: string; role?: string }) => item.type ?? item.role),
        ["user", "reasoning", "function_call", "function_call_output", "assistant", "user"],
      );
      assert.equal(input[1].encrypted_content, "gAAAAB-opaque");
      assert.equal(input[2].call_id, "call_c");
      assert.equal(input[3].call_id, "call_c");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("runs tool calls and sends images in function_call_output", async () => {
    const agent = await providerAgent(provider());
    try {
      server.reply(
        responsesStream({
          text: "Drawing.",
          toolCalls: [
            { id: "call_chart", name: "render_chart", input: {} },
            { id: "call_search", name: SEARCH_WIRE, input: { query: "charts" } },
          ],
        }),
        responsesStream({ text: "Here it is." }),
      );
      const result = await agent.run("Draw it");
      assert.equal(result.text, "Here it is.");
      assert.deepEqual(
        result.toolCalls.map((call) => call.name),
        ["render_chart", "mcp__docs.v2__search"],
      );
      // Images reach this API; only audio became a counted placeholder.
      assert.deepEqual(result.toolCalls[0]?.result.metadata.content_placeholders, { audio: 1 });
      const tools = server.requests[0]?.body.tools;
      assert.deepEqual(tools[1], {
        type: "function",
        name: SEARCH_WIRE,
        description: "Search the docs.",
        parameters: {
          type: "object",
          properties: { query: { type: "string" } },
          required: ["query"],
        },
        strict: false,
      });
      const input = server.requests[1]?.body.input;
      assert.deepEqual(input.slice(1), [
        { role: "assistant", content: "Drawing." },
        { type: "function_call", call_id: "call_chart", name: "render_chart", arguments: "{}" },
        {
          type: "function_call",
          call_id: "call_search",
          name: SEARCH_WIRE,
          arguments: '{"query":"charts"}',
        },
        {
          type: "function_call_output",
          call_id: "call_chart",
          output: [
            { type: "input_text", text: "Chart rendered." },
            { type: "input_image", image_url: `data:image/png;base64,${PNG_1X1}` },
            {
              type: "input_text",
              text: "[audio content: audio/wav, 12 bytes, not shown to this model]",
            },
          ],
        },
        { type: "function_call_output", call_id: "call_search", output: "3 hits for charts" },
      ]);
    } finally {
      await agent.close();
    }
  });

  it("asks for the output schema as text.format, strict", async () => {
    const agent = await providerAgent(provider());
    try {
      server.reply(responsesStream({ text: '{"city":"Oslo","celsius":-3,"advice":"umbrella"}' }));
      const result = await agent.run("Weather?", { output: Weather });
      assert.deepEqual(result.output, { city: "Oslo", celsius: -3, advice: "umbrella" });
      const format = server.requests[0]?.body.text.format;
      assert.equal(format.type, "json_schema");
      assert.equal(format.name, "weather");
      assert.equal(format.strict, true);
      assert.deepEqual(format.schema.required, ["city", "celsius", "advice"]);
    } finally {
      await agent.close();
    }
  });

  it("reports an incomplete response as max_tokens", async () => {
    server.reply(responsesStream({ text: "Cut", status: "incomplete" }));
    const events = await collect(provider({ maxTokens: 5 }), {
      messages: [{ role: "user", content: "hi" }],
    });
    assert.deepEqual(events.at(-1), { type: "stop", reason: "max_tokens" });
    assert.equal(server.requests[0]?.body.max_output_tokens, 5);
  });
});
