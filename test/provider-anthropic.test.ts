// The Anthropic provider with the real @anthropic-ai/sdk against a local server of ours that
// speaks the Messages API wire format, streaming included. Each test asserts what the provider
// sent and what the agent got.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { FileSessionStore, ModelError, StructuredOutputError } from "@pseudoclaude/core";
import { type ProviderEvent, wireToolName } from "@pseudoclaude/core/provider";
import { anthropic, DEFAULT_ANTHROPIC_MODEL } from "@pseudoclaude/provider-anthropic";
import { createTestTool } from "@pseudoclaude/testing";
import { z } from "zod";
import {
  anthropicError,
  anthropicHang,
  anthropicStream,
  anthropicStreamError,
} from "./fixtures/providers/anthropic-wire.js";
import {
  startWireServer,
  type WireReply,
  type WireServer,
} from "./fixtures/providers/wire-server.js";
import {
  collect,
  PNG_1X1,
  providerAgent,
  providerTestTools,
  rejection,
} from "./support/provider-agents.js";

const KEY = "sk-ant-test-0123456789abcdef";
/** The dotted registry name as the API sees it: sanitized, plus a hash of the original. */
const SEARCH_WIRE = wireToolName("mcp__docs.v2__search");

describe("Anthropic provider against a local Messages API server", () => {
  let server: WireServer;
  before(async () => {
    server = await startWireServer();
  });
  afterEach(() => {
    assert.equal(server.pending(), 0, "every scripted reply was used");
    server.reset();
  });
  after(() => server.close());

  const provider = (options: Parameters<typeof anthropic>[0] = {}) =>
    anthropic({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0, env: {}, ...options });

  it("streams text deltas, then usage and the stop reason", async () => {
    server.reply(
      anthropicStream({
        text: ["Hel", "lo, ", "world."],
        usage: { input_tokens: 30, output_tokens: 9 },
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
      {
        type: "usage",
        usage: { inputTokens: 30, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { type: "stop", reason: "end_turn" },
    ] satisfies ProviderEvent[]);
    const [request] = server.requests;
    assert.equal(request?.path, "/v1/messages");
    assert.equal(
      request?.headers.authorization,
      `Bearer ${KEY}`,
      "the SDK sends the key as a bearer token",
    );
    assert.equal(request?.body.model, DEFAULT_ANTHROPIC_MODEL);
    assert.equal(request?.body.stream, true);
    assert.equal(request?.body.max_tokens, 8192);
    assert.deepEqual(request?.body.messages, [
      { role: "user", content: [{ type: "text", text: "Say hello" }] },
    ]);
    assert.equal(request?.body.tools, undefined, "no tools, no tools field");
  });

  it("forces a tool call with tool_choice any when asked for required (not with extended thinking)", async () => {
    const tools = Object.values(providerTestTools()).map((tool) => tool.definition);
    server.reply(
      anthropicStream({ text: "ok" }),
      anthropicStream({ text: "ok" }),
      anthropicStream({ text: "ok" }),
    );
    const ask = { system: "", messages: [{ role: "user" as const, content: "hi" }], tools };
    await collect(provider(), { ...ask, toolChoice: "required" });
    await collect(provider(), ask);
    await collect(provider({ thinkingBudgetTokens: 2048 }), { ...ask, toolChoice: "required" });
    const [forced, plain, thinking] = server.requests.map((request) => request.body);
    assert.deepEqual(forced.tool_choice, { type: "any" });
    assert.equal(plain.tool_choice, undefined);
    assert.equal(thinking.tool_choice, undefined, "the API refuses it with thinking");
  });

  it("marks the system prompt and the last tool definition for prompt caching", async () => {
    const tools = Object.values(providerTestTools()).map((tool) => tool.definition);
    server.reply(anthropicStream({ text: "ok" }), anthropicStream({ text: "ok" }));
    await collect(provider(), {
      system: "System prompt.",
      messages: [{ role: "user", content: "hi" }],
      tools,
    });
    await collect(provider({ promptCaching: false }), {
      system: "System prompt.",
      messages: [{ role: "user", content: "hi" }],
      tools,
    });
    const [cached, plain] = server.requests.map((request) => request.body);
    assert.deepEqual(cached.system, [
      { type: "text", text: "System prompt.", cache_control: { type: "ephemeral" } },
    ]);
    assert.deepEqual(
      cached.tools.map((tool: { cache_control?: unknown }) => tool.cache_control),
      [undefined, undefined, undefined, { type: "ephemeral" }],
    );
    assert.deepEqual(plain.system, [{ type: "text", text: "System prompt." }]);
    assert.ok(
      plain.tools.every((tool: { cache_control?: unknown }) => tool.cache_control === undefined),
    );
  });

  it("asks for structured output in output_config, and repairs a wrong answer once", async () => {
    const Weather = z.object({ city: z.string().min(1), celsius: z.number() });
    const agent = await providerAgent(provider());
    try {
      server.reply(
        anthropicStream({ text: '{"city":"Lisbon"}' }),
        anthropicStream({ text: '{"city":"Lisbon","celsius":21}' }),
      );
      const result = await agent.run("Weather?", { output: Weather });
      assert.deepEqual(result.output, { city: "Lisbon", celsius: 21 });
      const [first, second] = server.requests.map((request) => request.body);
      assert.deepEqual(first.output_config, {
        format: {
          type: "json_schema",
          schema: {
            type: "object",
            properties: {
              city: { type: "string", description: "{minLength: 1}" },
              celsius: { type: "number" },
            },
            required: ["city", "celsius"],
            additionalProperties: false,
          },
        },
      });
      assert.deepEqual(second.messages.at(-1), {
        role: "user",
        content: [
          {
            type: "text",
            text: 'Your final answer does not match the required output schema "output":\n- celsius: Invalid input: expected number, received undefined\nAnswer again with only the corrected JSON value, nothing else.',
          },
        ],
      });
    } finally {
      await agent.close();
    }
  });

  it("ends with a StructuredOutputError when the repaired answer still misses the schema", async () => {
    const Weather = z.object({ city: z.string(), celsius: z.number() });
    const agent = await providerAgent(provider());
    try {
      server.reply(
        anthropicStream({ text: "Sunny in Lisbon." }),
        anthropicStream({ text: '{"city":"Lisbon","celsius":"21"}' }),
      );
      const error = await agent.run("Weather?", { output: Weather }).then(
        () => assert.fail("the run should fail"),
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof StructuredOutputError);
      assert.equal(error.code, "output_invalid");
      assert.equal(error.raw, '{"city":"Lisbon","celsius":"21"}');
      assert.deepEqual(error.issues, [
        { path: "celsius", message: "Invalid input: expected number, received string" },
      ]);
      assert.equal(server.requests.length, 2, "one repair, no more");
      assert.ok(server.requests[1]?.body.output_config, "the repair asks for the format too");
    } finally {
      await agent.close();
    }
  });

  it("reports cache reads and writes in usage", async () => {
    server.reply(
      anthropicStream({
        text: "cached",
        usage: {
          input_tokens: 12,
          output_tokens: 4,
          cache_read_input_tokens: 2048,
          cache_creation_input_tokens: 96,
        },
      }),
    );
    const events = await collect(provider(), { messages: [{ role: "user", content: "hi" }] });
    assert.deepEqual(
      events.find((event) => event.type === "usage"),
      {
        type: "usage",
        usage: { inputTokens: 12, outputTokens: 4, cacheReadTokens: 2048, cacheWriteTokens: 96 },
      },
    );
  });

  it("names tools the API refuses by a sanitized, hashed name", () => {
    assert.match(SEARCH_WIRE, /^mcp__docs_v2__search_[0-9a-f]{8}$/);
  });

  it("declares its model's context window, or the configured one, and refuses a bad one", () => {
    assert.equal(provider({ contextWindow: 50_000 }).contextWindow, 50_000);
    assert.throws(
      () => provider({ contextWindow: 0 }),
      (error: unknown) =>
        error instanceof ModelError === false &&
        /anthropic contextWindow must be a positive integer \(got 0\)/.test(String(error)),
    );
  });

  it("withModel: the same endpoint, key and settings for another model (a sub-agent's)", async () => {
    server.reply(anthropicStream({ text: "ok" }));
    const base = provider({ maxTokens: 1234, contextWindow: 50_000 });
    const other = base.withModel("claude-other-1");
    assert.equal(other.model, "claude-other-1");
    assert.equal(base.model, DEFAULT_ANTHROPIC_MODEL, "the original is left as it was");
    assert.notEqual(other.contextWindow, 50_000, "the window given for one model is not another's");
    await collect(other, { system: "", messages: [{ role: "user", content: "hi" }] });
    const [request] = server.requests;
    assert.equal(request?.body.model, "claude-other-1");
    assert.equal(request?.body.max_tokens, 1234);
    assert.equal(request?.headers.authorization, `Bearer ${KEY}`);
  });

  it("runs parallel tool calls, mapping a tool name the API refuses both ways", async () => {
    const tools = providerTestTools();
    const agent = await providerAgent(provider(), tools);
    try {
      server.reply(
        anthropicStream({
          text: "Let me check both.",
          toolCalls: [
            { id: "toolu_A", name: "get_forecast", input: { city: "Lisbon" } },
            { id: "toolu_B", name: SEARCH_WIRE, input: { query: "cache" } },
          ],
        }),
        anthropicStream({ text: "Sunny, and 3 hits." }),
      );
      const result = await agent.run("Weather in Lisbon and search the docs for cache");
      assert.equal(result.text, "Sunny, and 3 hits.");
      assert.equal(result.stopReason, "end_turn");
      assert.deepEqual(
        result.toolCalls.map((call) => [call.id, call.name, call.result.ok]),
        [
          ["toolu_A", "get_forecast", true],
          ["toolu_B", "mcp__docs.v2__search", true],
        ],
      );
      assert.deepEqual(tools.search?.calls[0]?.args, { query: "cache" });
      const wireNames = server.requests[0]?.body.tools.map((tool: { name: string }) => tool.name);
      assert.deepEqual(wireNames, ["get_forecast", SEARCH_WIRE, "render_chart", "flaky"]);
      // The second request replays the calls under their wire names, results in one user turn.
      const history = server.requests[1]?.body.messages;
      assert.deepEqual(history[1], {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check both." },
          { type: "tool_use", id: "toolu_A", name: "get_forecast", input: { city: "Lisbon" } },
          { type: "tool_use", id: "toolu_B", name: SEARCH_WIRE, input: { query: "cache" } },
        ],
      });
      assert.deepEqual(history[2], {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_A",
            content: [{ type: "text", text: "Sunny in Lisbon, 21°C." }],
          },
          {
            type: "tool_result",
            tool_use_id: "toolu_B",
            content: [{ type: "text", text: "3 hits for cache" }],
          },
        ],
      });
      assert.equal(history.length, 3);
    } finally {
      await agent.close();
    }
  });

  it("streams extended thinking as reasoning and sends the signed block back with the tool results", async () => {
    const tools = providerTestTools();
    const agent = await providerAgent(provider({ thinkingBudgetTokens: 2048 }), tools);
    const reasoning: string[] = [];
    agent.on("reasoning-delta", ({ text }) => reasoning.push(text));
    try {
      server.reply(
        anthropicStream({
          thinking: { deltas: ["The user wants ", "the weather."], signature: "EqQBCkgIARABGAIiQ" },
          toolCalls: [{ id: "toolu_T", name: "get_forecast", input: { city: "Porto" } }],
        }),
        anthropicStream({ text: "Sunny in Porto." }),
      );
      const result = await agent.run("Weather in Porto?");
      assert.equal(result.text, "Sunny in Porto.");
      assert.deepEqual(reasoning, ["The user wants ", "the weather."]);
      assert.deepEqual(server.requests[0]?.body.thinking, { type: "enabled", budget_tokens: 2048 });
      const replayed = server.requests[1]?.body.messages[1];
      assert.equal(replayed.role, "assistant");
      assert.deepEqual(replayed.content[0], {
        type: "thinking",
        thinking: "The user wants the weather.",
        signature: "EqQBCkgIARABGAIiQ",
      });
      assert.equal(replayed.content[1].type, "tool_use");
    } finally {
      await agent.close();
    }
  });

  it("resumes a saved session with the signed thinking block and the tool pair intact", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), "pc-sessions-"));
    const session = { id: "porto", store: new FileSessionStore({ workspace: folder, folder }) };
    try {
      server.reply(
        anthropicStream({
          thinking: { deltas: ["Weather first."], signature: "EqQBCkgIARABGAIiQ" },
          toolCalls: [{ id: "toolu_P", name: "get_forecast", input: { city: "Porto" } }],
        }),
        anthropicStream({ text: "Sunny in Porto." }),
        anthropicStream({ text: "Also sunny tomorrow." }),
      );
      const first = await providerAgent(provider({ thinkingBudgetTokens: 2048 }), undefined, {
        session,
      });
      await first.run("Weather in Porto?");
      await first.close();
      // A new process would do exactly this: a new agent, the same session, from the file.
      const resumed = await providerAgent(provider({ thinkingBudgetTokens: 2048 }), undefined, {
        session,
      });
      try {
        assert.equal(resumed.sessionId, "porto");
        await resumed.run("And tomorrow?");
      } finally {
        await resumed.close();
      }
      const messages = server.requests[2]?.body.messages;
      assert.deepEqual(
        messages.map((message: { role: string }) => message.role),
        ["user", "assistant", "user", "assistant", "user"],
      );
      assert.deepEqual(messages[1].content[0], {
        type: "thinking",
        thinking: "Weather first.",
        signature: "EqQBCkgIARABGAIiQ",
      });
      assert.equal(messages[1].content[1].id, "toolu_P");
      assert.equal(messages[2].content[0].type, "tool_result");
      assert.equal(messages[2].content[0].tool_use_id, "toolu_P");
      assert.deepEqual(messages[4].content, [{ type: "text", text: "And tomorrow?" }]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("compacts a long conversation: every request under the window, tool_use and tool_result paired", async () => {
    const PAGE = "lorem ipsum dolor sit amet ".repeat(160);
    const reader = createTestTool({
      name: "read_page",
      description: "Read one page.",
      safety: "read_only",
      inputSchema: { type: "object", properties: { page: { type: "number" } } },
      run: (args) => `Page ${String(args.page)}: ${PAGE}`,
    });
    const WINDOW = 5_000;
    const sizeOf = (body: { system?: unknown; messages: unknown; tools?: unknown }) =>
      Math.ceil(JSON.stringify([body.system, body.messages, body.tools]).length / 4);
    let page = 0;
    // Answers like the API: it counts the input it got; a summary request gets a summary.
    const answer: WireReply = (request, response, raw) => {
      const summary = JSON.stringify(request.body.system ?? "").includes("You summarise");
      if (!summary) page += 1;
      const done = !summary && page > 10;
      if (!done) server.reply(answer);
      const usage = { input_tokens: sizeOf(request.body), output_tokens: 20 };
      return anthropicStream(
        summary
          ? { text: `Pages 1 to ${page} were read; all lorem ipsum.`, usage }
          : done
            ? { text: "All ten pages read.", usage }
            : { toolCalls: [{ id: `toolu_${page}`, name: "read_page", input: { page } }], usage },
      )(request, response, raw);
    };
    server.reply(answer);
    const agent = await providerAgent(provider({ contextWindow: WINDOW }), { reader });
    const compactions: string[] = [];
    agent.on("compaction", ({ stage }) => compactions.push(stage));
    try {
      const result = await agent.run("Read pages 1 to 10.", { maxTurns: 30 });
      assert.equal(result.text, "All ten pages read.");
      assert.ok(compactions.length > 0, "it compacted");
      const work = server.requests.filter(
        (request) => !JSON.stringify(request.body.system ?? "").includes("You summarise"),
      );
      assert.equal(work.length, 11);
      for (const [index, request] of work.entries()) {
        assert.ok(sizeOf(request.body) <= WINDOW, `request ${index + 1}: ${sizeOf(request.body)}`);
        const messages = request.body.messages as Array<{
          role: string;
          content: string | Array<{ type: string; id?: string; tool_use_id?: string }>;
        }>;
        messages.forEach((message, at) => {
          if (typeof message.content === "string") return;
          const results = message.content.filter((block) => block.type === "tool_result");
          const before = messages[at - 1]?.content;
          const calls = Array.isArray(before)
            ? before.filter((block) => block.type === "tool_use").map((block) => block.id)
            : [];
          for (const block of results)
            assert.ok(
              calls.includes(block.tool_use_id),
              `request ${index + 1}: ${block.tool_use_id} paired`,
            );
          const next = messages[at + 1]?.content;
          for (const id of message.content
            .filter((block) => block.type === "tool_use")
            .map((block) => block.id))
            assert.ok(
              Array.isArray(next) && next.some((block) => block.tool_use_id === id),
              `request ${index + 1}: ${id} answered`,
            );
        });
      }
    } finally {
      await agent.close();
    }
  });

  it("refuses a thinking budget the API would refuse, before any request", () => {
    assert.throws(
      () => provider({ thinkingBudgetTokens: 100 }),
      /thinkingBudgetTokens must be an integer from 1024/,
    );
  });

  it("sends images in tool results as image blocks, placeholders for audio, and flags failures", async () => {
    const agent = await providerAgent(provider());
    try {
      server.reply(
        anthropicStream({
          toolCalls: [
            { id: "toolu_chart", name: "render_chart", input: {} },
            { id: "toolu_flaky", name: "flaky", input: {} },
          ],
        }),
        anthropicStream({ text: "Here is the chart." }),
      );
      const result = await agent.run("Draw it");
      const [chart, flaky] = result.toolCalls;
      // The model reads images: only the audio block became a counted placeholder.
      assert.deepEqual(chart?.result.metadata.content_placeholders, { audio: 1 });
      assert.equal(flaky?.result.ok, false);
      const results = server.requests[1]?.body.messages[2].content;
      assert.deepEqual(results[0], {
        type: "tool_result",
        tool_use_id: "toolu_chart",
        content: [
          { type: "text", text: "Chart rendered." },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_1X1 } },
          { type: "text", text: "[audio content: audio/wav, 12 bytes, not shown to this model]" },
        ],
      });
      assert.deepEqual(results[1], {
        type: "tool_result",
        tool_use_id: "toolu_flaky",
        content: [{ type: "text", text: "The flaky tool failed on purpose." }],
        is_error: true,
      });
    } finally {
      await agent.close();
    }
  });

  it("passes broken tool JSON on as a raw string, so the registry answers invalid_arguments", async () => {
    const agent = await providerAgent(provider());
    try {
      server.reply(
        anthropicStream({
          toolCalls: [{ id: "toolu_bad", name: "get_forecast", rawJson: '{"city": "Lis' }],
        }),
        anthropicStream({ text: "Sorry." }),
      );
      const result = await agent.run("Weather?");
      assert.equal(result.toolCalls[0]?.arguments, '{"city": "Lis');
      assert.equal(result.toolCalls[0]?.result.error?.code, "invalid_arguments");
      const replayed = server.requests[1]?.body.messages[1].content[0];
      assert.deepEqual(replayed.input, { _invalid_arguments: '{"city": "Lis' });
    } finally {
      await agent.close();
    }
  });

  for (const [status, type, code] of [
    [400, "invalid_request_error", "bad_request"],
    [401, "authentication_error", "authentication_failed"],
  ] as const) {
    it(`turns a ${status} into a ModelError with the status, never the key`, async () => {
      const agent = await providerAgent(provider());
      try {
        server.reply(anthropicError(status, type, `Rejected: key ${KEY} is not valid here.`));
        const error = await rejection(agent.run("hi"));
        assert.ok(error instanceof ModelError, String(error));
        assert.equal(error.code, code);
        assert.equal(error.details?.status, status);
        assert.equal(error.details?.error_type, type);
        assert.equal(error.details?.request_id, "req_011CTestError");
        assert.match(error.message, new RegExp(`Anthropic API error ${status} \\(${type}\\)`));
        assert.ok(!error.message.includes(KEY), error.message);
      } finally {
        await agent.close();
      }
    });
  }

  it("retries a 429 as the SDK does, then succeeds", async () => {
    server.reply(
      anthropicError(429, "rate_limit_error", "Slow down.", { "retry-after-ms": "1" }),
      anthropicError(529, "overloaded_error", "Overloaded.", { "retry-after-ms": "1" }),
      anthropicStream({ text: "Finally." }),
    );
    const events = await collect(provider({ maxRetries: 2 }), {
      messages: [{ role: "user", content: "hi" }],
    });
    assert.equal(server.requests.length, 3);
    assert.equal(server.requests[2]?.headers["x-stainless-retry-count"], "2");
    assert.deepEqual(events.at(-1), { type: "stop", reason: "end_turn" });
  });

  it("gives up after the SDK's retries with a rate_limited ModelError", async () => {
    server.reply(
      anthropicError(429, "rate_limit_error", "Slow down.", { "retry-after-ms": "1" }),
      anthropicError(429, "rate_limit_error", "Slow down.", { "retry-after-ms": "1" }),
    );
    const error = await rejection(
      collect(provider({ maxRetries: 1 }), { messages: [{ role: "user", content: "hi" }] }),
    );
    assert.equal(error.code, "rate_limited");
    assert.equal(error.details?.status, 429);
  });

  it("fails with a ModelError when the connection drops mid-stream, without hanging", async () => {
    const agent = await providerAgent(provider());
    try {
      server.reply(anthropicStream({ text: "This answer will be cut short" }, { cutAfter: 4 }));
      const texts: string[] = [];
      agent.on("text-delta", ({ text }) => texts.push(text));
      const error = await rejection(agent.run("hi"));
      assert.ok(error instanceof ModelError, String(error));
      assert.equal(error.code, "stream_interrupted");
      assert.deepEqual(texts, ["This "], "what arrived before the cut was streamed");
    } finally {
      await agent.close();
    }
  });

  it("fails with stream_incomplete when the server ends the stream before message_stop", async () => {
    server.reply(anthropicStream({ text: "Half an" }, { endAfter: 4 }));
    const error = await rejection(
      collect(provider(), { messages: [{ role: "user", content: "hi" }] }),
    );
    assert.equal(error.code, "stream_incomplete");
  });

  it("turns an error event inside the stream into a ModelError", async () => {
    server.reply(anthropicStreamError("overloaded_error", "Overloaded"));
    const error = await rejection(
      collect(provider(), { messages: [{ role: "user", content: "hi" }] }),
    );
    assert.ok(error instanceof ModelError);
    assert.equal(error.code, "overloaded");
    assert.equal(error.details?.error_type, "overloaded_error");
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
      server.reply(anthropicHang(opened, closed));
      const running = agent.run("think hard", { signal: controller.signal });
      await open;
      controller.abort();
      const result = await running;
      assert.equal(result.stopReason, "aborted");
      await hungUp; // The SDK closed the connection; the test would time out otherwise.
    } finally {
      await agent.close();
    }
  });

  it("reports a server it cannot reach as connection_failed", async () => {
    const closed = await startWireServer();
    const url = closed.baseURL;
    await closed.close();
    const error = await rejection(
      collect(anthropic({ baseURL: url, apiKey: KEY, maxRetries: 0, env: {} }), {
        messages: [{ role: "user", content: "hi" }],
      }),
    );
    assert.equal(error.code, "connection_failed");
    assert.ok(!error.message.includes(KEY));
  });
});
