// The Anthropic provider with the real @anthropic-ai/sdk against a local server of ours that
// speaks the Messages API wire format, streaming included: the provider contract suite, then
// what only this API has. Each test asserts what the provider sent and what the agent got.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { FileSessionStore, ModelError, StructuredOutputError } from "@pseudoclaude/core";
import { anthropic } from "@pseudoclaude/provider-anthropic";
import { createTestTool, describeProviderContract } from "@pseudoclaude/testing";
import { z } from "zod";
import { anthropicStream, anthropicStreamError } from "./fixtures/providers/anthropic-wire.js";
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
import { ANTHROPIC_TEST_KEY, anthropicHarness } from "./support/provider-harness-anthropic.js";

describeProviderContract(anthropicHarness);

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
    anthropic({
      baseURL: server.baseURL,
      apiKey: ANTHROPIC_TEST_KEY,
      maxRetries: 0,
      env: {},
      ...options,
    });

  it("leaves the forced tool choice out with extended thinking, which the API refuses it with", async () => {
    const tools = Object.values(providerTestTools()).map((tool) => tool.definition);
    server.reply(anthropicStream({ text: "ok" }));
    await collect(provider({ thinkingBudgetTokens: 2048 }), {
      system: "",
      messages: [{ role: "user", content: "hi" }],
      tools,
      toolChoice: "required",
    });
    assert.equal(server.requests[0]?.body.tool_choice, undefined);
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

  it("turns an error event inside the stream into a ModelError", async () => {
    server.reply(anthropicStreamError("overloaded_error", "Overloaded"));
    const error = await rejection(
      collect(provider(), { messages: [{ role: "user", content: "hi" }] }),
    );
    assert.ok(error instanceof ModelError);
    assert.equal(error.code, "overloaded");
    assert.equal(error.details?.error_type, "overloaded_error");
  });
});
