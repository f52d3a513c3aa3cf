// The OpenAI provider with the real `openai` SDK against a local server of ours that speaks
// the Chat Completions and Responses wire formats, streaming included. Each test asserts what
// the provider sent and what the agent got.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import {
  FileSessionStore,
  jsonSchemaOutput,
  ModelError,
  StructuredOutputError,
} from "@pseudoclaude/core";
import { type ProviderEvent, wireToolName } from "@pseudoclaude/core/provider";
import { DEFAULT_OPENAI_MODEL, openai } from "@pseudoclaude/provider-openai";
import { createTestTool } from "@pseudoclaude/testing";
import { z } from "zod";
import {
  chatHang,
  chatStream,
  openaiError,
  responsesStream,
} from "./fixtures/providers/openai-wire.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import {
  collect,
  PNG_1X1,
  providerAgent,
  providerTestTools,
  rejection,
} from "./support/provider-agents.js";

const KEY = "sk-proj-test-0123456789abcdef";
const Weather = z
  .object({
    city: z.string().min(1),
    celsius: z.number(),
    advice: z.enum(["umbrella", "sunglasses"]).optional(),
  })
  .meta({ title: "weather" });
const SEARCH_WIRE = wireToolName("mcp__docs.v2__search");

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
    openai({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0, env: {}, ...options });

  it("streams text deltas, then usage and the stop reason", async () => {
    server.reply(
      chatStream({
        text: ["Hel", "lo, ", "world."],
        usage: { prompt_tokens: 40, completion_tokens: 9, cached_tokens: 32 },
      }),
    );
    const events = await collect(provider(), {
      system: "Be brief.",
      messages: [{ role: "user", content: "Say hello" }],
    });
    assert.deepEqual(events, [
      { type: "text-delta", text: "Hel" },
      { type: "text-delta", text: "lo, " },
      { type: "text-delta", text: "world." },
      // Cached tokens are counted apart, as the kernel (and Anthropic) count them.
      { type: "usage", usage: { inputTokens: 8, outputTokens: 9, cacheReadTokens: 32 } },
      { type: "stop", reason: "end_turn" },
    ] satisfies ProviderEvent[]);
    const [request] = server.requests;
    assert.equal(request?.path, "/v1/chat/completions");
    assert.equal(request?.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(request?.body, {
      model: DEFAULT_OPENAI_MODEL,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Say hello" },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("forces a tool call with tool_choice required when asked, in both APIs", async () => {
    const tools = Object.values(providerTestTools()).map((tool) => tool.definition);
    server.reply(
      chatStream({ text: "a" }),
      chatStream({ text: "b" }),
      responsesStream({ text: "c" }),
    );
    const ask = { system: "", messages: [{ role: "user" as const, content: "hi" }], tools };
    await collect(provider(), { ...ask, toolChoice: "required" });
    await collect(provider(), ask);
    await collect(provider({ api: "responses" }), { ...ask, toolChoice: "required" });
    const [chat, plain, responses] = server.requests.map((request) => request.body);
    assert.equal(chat.tool_choice, "required");
    assert.equal(plain.tool_choice, undefined);
    assert.equal(responses.tool_choice, "required");
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

  it("declares its model's context window, or the configured one, and refuses a bad one", () => {
    assert.equal(provider({ contextWindow: 50_000 }).contextWindow, 50_000);
    assert.throws(
      () => provider({ contextWindow: 0 }),
      (error: unknown) =>
        error instanceof ModelError === false &&
        /openai contextWindow must be a positive integer \(got 0\)/.test(String(error)),
    );
  });

  it("withModel: the same endpoint, key and settings for another model (a sub-agent's)", async () => {
    server.reply(chatStream({ text: "ok" }));
    const other = provider({ model: "gpt-main" }).withModel("gpt-small");
    assert.equal(other.model, "gpt-small");
    await collect(other, { system: "", messages: [{ role: "user", content: "hi" }] });
    const [request] = server.requests;
    assert.equal(request?.body.model, "gpt-small");
    assert.equal(request?.headers.authorization, `Bearer ${KEY}`);
  });

  it("runs parallel tool calls, mapping a tool name the API refuses both ways", async () => {
    const tools = providerTestTools();
    const agent = await providerAgent(provider(), tools);
    try {
      server.reply(
        chatStream({
          toolCalls: [
            { id: "call_A", name: "get_forecast", input: { city: "Lisbon" } },
            { id: "call_B", name: SEARCH_WIRE, input: { query: "cache" } },
          ],
        }),
        chatStream({ text: "Sunny, and 3 hits." }),
      );
      const result = await agent.run("Weather in Lisbon and search the docs for cache");
      assert.equal(result.text, "Sunny, and 3 hits.");
      assert.deepEqual(
        result.toolCalls.map((call) => [call.id, call.name, call.result.ok]),
        [
          ["call_A", "get_forecast", true],
          ["call_B", "mcp__docs.v2__search", true],
        ],
      );
      assert.deepEqual(tools.search?.calls[0]?.args, { query: "cache" });
      const first = server.requests[0]?.body;
      assert.deepEqual(
        first.tools.map((tool: { type: string; function: { name: string } }) => [
          tool.type,
          tool.function.name,
        ]),
        [
          ["function", "get_forecast"],
          ["function", SEARCH_WIRE],
          ["function", "render_chart"],
          ["function", "flaky"],
        ],
      );
      assert.equal(first.tools[0].function.strict, undefined, "non-strict by default");
      const history = server.requests[1]?.body.messages;
      assert.deepEqual(history.slice(2), [
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_A",
              type: "function",
              function: { name: "get_forecast", arguments: '{"city":"Lisbon"}' },
            },
            {
              id: "call_B",
              type: "function",
              function: { name: SEARCH_WIRE, arguments: '{"query":"cache"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_A", content: "Sunny in Lisbon, 21°C." },
        { role: "tool", tool_call_id: "call_B", content: "3 hits for cache" },
      ]);
    } finally {
      await agent.close();
    }
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

  it("passes broken tool JSON on as a raw string, so the registry answers invalid_arguments", async () => {
    const agent = await providerAgent(provider());
    try {
      server.reply(
        chatStream({
          toolCalls: [{ id: "call_bad", name: "get_forecast", rawJson: '{"city": "Lis' }],
        }),
        chatStream({ text: "Sorry." }),
      );
      const result = await agent.run("Weather?");
      assert.equal(result.toolCalls[0]?.result.error?.code, "invalid_arguments");
      const replayed = server.requests[1]?.body.messages[2].tool_calls[0].function.arguments;
      assert.equal(replayed, '{"city": "Lis', "the model sees what it sent");
    } finally {
      await agent.close();
    }
  });

  for (const [status, type, code] of [
    [400, "invalid_request_error", "bad_request"],
    [401, "invalid_request_error", "authentication_failed"],
  ] as const) {
    it(`turns a ${status} into a ModelError with the status, never the key`, async () => {
      const agent = await providerAgent(provider());
      try {
        server.reply(
          openaiError(status, {
            message: `Incorrect API key provided: ${KEY}.`,
            type,
            code: "invalid_api_key",
          }),
        );
        const error = await rejection(agent.run("hi"));
        assert.ok(error instanceof ModelError, String(error));
        assert.equal(error.code, code);
        assert.equal(error.details?.status, status);
        assert.equal(error.details?.error_code, "invalid_api_key");
        assert.equal(error.details?.request_id, "req_test_error");
        assert.match(error.message, new RegExp(`OpenAI API error ${status} \\(${type}\\)`));
        assert.ok(!error.message.includes(KEY), error.message);
        assert.equal(error.cause, undefined, "a cause that holds the key is left out");
      } finally {
        await agent.close();
      }
    });
  }

  it("retries a 429 as the SDK does, then succeeds", async () => {
    server.reply(
      openaiError(
        429,
        { message: "Rate limit reached.", type: "requests", code: "rate_limit_exceeded" },
        { "retry-after-ms": "1" },
      ),
      openaiError(503, { message: "Try again.", type: "server_error" }, { "retry-after-ms": "1" }),
      chatStream({ text: "Finally." }),
    );
    const events = await collect(provider({ maxRetries: 2 }), {
      messages: [{ role: "user", content: "hi" }],
    });
    assert.equal(server.requests.length, 3);
    assert.equal(server.requests[2]?.headers["x-stainless-retry-count"], "2");
    assert.deepEqual(events.at(-1), { type: "stop", reason: "end_turn" });
  });

  it("fails with a ModelError when the connection drops mid-stream, without hanging", async () => {
    server.reply(chatStream({ text: "This answer will be cut short" }, { cutAfter: 3 }));
    const seen: ProviderEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of provider().stream({
          system: "",
          messages: [{ role: "user", content: "hi" }],
          tools: [],
        }))
          seen.push(event);
      })(),
    );
    assert.ok(error instanceof ModelError, String(error));
    assert.equal(error.code, "stream_interrupted");
    assert.deepEqual(seen, [
      { type: "text-delta", text: "This " },
      { type: "text-delta", text: "answer " },
    ]);
  });

  it("fails with stream_incomplete when the server ends the stream without a finish_reason", async () => {
    server.reply(chatStream({ text: "Half an answer" }, { endAfter: 3 }));
    const error = await rejection(
      collect(provider(), { messages: [{ role: "user", content: "hi" }] }),
    );
    assert.equal(error.code, "stream_incomplete");
  });

  it("aborts a running request: the run stops as aborted and the connection closes", async () => {
    const agent = await providerAgent(provider());
    try {
      const controller = new AbortController();
      let opened!: () => void;
      const open = new Promise<void>((resolve) => {
        opened = resolve;
      });
      let closed!: () => void;
      const hungUp = new Promise<void>((resolve) => {
        closed = resolve;
      });
      server.reply(chatHang(opened, closed));
      const running = agent.run("think hard", { signal: controller.signal });
      await open;
      controller.abort();
      const result = await running;
      assert.equal(result.stopReason, "aborted");
      await hungUp;
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
      apiKey: KEY,
      maxRetries: 0,
      env: {},
      ...options,
    });

  it("streams text, then usage and the stop reason, with the system prompt as instructions", async () => {
    server.reply(
      responsesStream({
        text: ["Hi ", "there."],
        usage: { prompt_tokens: 20, completion_tokens: 3 },
      }),
    );
    const events = await collect(provider(), {
      system: "Be brief.",
      messages: [{ role: "user", content: "Hello" }],
    });
    assert.deepEqual(events, [
      { type: "text-delta", text: "Hi " },
      { type: "text-delta", text: "there." },
      { type: "usage", usage: { inputTokens: 20, outputTokens: 3, cacheReadTokens: 0 } },
      { type: "stop", reason: "end_turn" },
    ] satisfies ProviderEvent[]);
    const [request] = server.requests;
    assert.equal(request?.path, "/v1/responses");
    assert.deepEqual(request?.body, {
      model: DEFAULT_OPENAI_MODEL,
      input: [{ role: "user", content: "Hello" }],
      stream: true,
      store: false,
      instructions: "Be brief.",
    });
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

  it("fails with a ModelError when the connection drops mid-stream", async () => {
    server.reply(responsesStream({ text: "This answer will be cut" }, { cutAfter: 3 }));
    const error = await rejection(
      collect(provider(), { messages: [{ role: "user", content: "hi" }] }),
    );
    assert.ok(error instanceof ModelError);
    assert.equal(error.code, "stream_interrupted");
  });
});
