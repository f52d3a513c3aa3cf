import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toolFailure, toolSuccess } from "@pseudoclaude/core";
import { createToolNameMap, type Message } from "@pseudoclaude/core/provider";
import { toChatMessages } from "../src/chat-messages.js";
import { translateChatStream } from "../src/chat-stream.js";
import { toolResultText } from "../src/tool-result-text.js";
import { OpenAIToolProjector, toParameters } from "../src/wire-tools.js";

describe("Chat Completions message projection", () => {
  it("turns user images into data URLs and other kinds into placeholders", () => {
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        ],
      },
    ];
    assert.deepEqual(toChatMessages("", messages, createToolNameMap([])), [
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          { type: "text", text: "[audio content: audio/wav, 3 bytes, not shown to this model]" },
        ],
      },
    ]);
  });

  it("keeps an assistant answer without tool calls as plain content", () => {
    assert.deepEqual(
      toChatMessages(
        "S",
        [{ role: "assistant", text: "Done.", toolCalls: [] }],
        createToolNameMap([]),
      ),
      [
        { role: "system", content: "S" },
        { role: "assistant", content: "Done." },
      ],
    );
  });

  it("says a tool failed, and never sends an empty tool message", () => {
    assert.equal(
      toolResultText(toolFailure("denied", "Not allowed.")),
      "[error: denied] Not allowed.",
    );
    assert.equal(
      toolResultText(toolFailure("timeout", "Too slow.", { content: [] })),
      "[error: timeout] Too slow.",
    );
    assert.equal(toolResultText(toolSuccess([])), "(no output)");
  });
});

describe("Chat Completions tool projection", () => {
  it("reuses the projection while the offered tool list is the same array", () => {
    const projector = new OpenAIToolProjector(false);
    const tools = [
      {
        name: "a",
        description: "A",
        inputSchema: { type: "object" },
        safety: "read_only",
        source: "s",
      },
    ] as const;
    assert.equal(projector.project(tools), projector.project(tools));
    assert.notEqual(projector.project(tools), projector.project([...tools]));
  });

  it("sends non-strict parameters as an object schema with properties", () => {
    assert.deepEqual(toParameters({}), { type: "object", properties: {} });
    assert.deepEqual(toParameters({ type: "array" }), { type: "object" });
  });
});

describe("Chat Completions stream translation", () => {
  async function* chunks(...deltas: Array<Record<string, unknown> | { finish: string }>) {
    for (const delta of deltas) {
      const finish = "finish" in delta ? delta.finish : null;
      yield {
        id: "c",
        object: "chat.completion.chunk",
        created: 0,
        model: "m",
        choices: [{ index: 0, delta: "finish" in delta ? {} : delta, finish_reason: finish }],
      } as never;
    }
  }

  it("collects tool calls from servers that send them whole and without an index", async () => {
    const tools = new OpenAIToolProjector(false).project([]);
    const events = [];
    for await (const event of translateChatStream(
      chunks(
        { tool_calls: [{ id: "x", function: { name: "a", arguments: '{"n":1}' } }] },
        { tool_calls: [{ id: "y", function: { name: "b", arguments: "{}" } }] },
        { finish: "tool_calls" },
      ),
      tools,
      undefined,
    )) {
      events.push(event);
    }
    assert.deepEqual(events, [
      // A call sent whole is one piece of input, passed on as it came.
      { type: "tool-input-delta", id: "x", name: "a", delta: '{"n":1}' },
      { type: "tool-input-delta", id: "y", name: "b", delta: "{}" },
      { type: "tool-call", call: { id: "x", name: "a", arguments: { n: 1 } } },
      { type: "tool-call", call: { id: "y", name: "b", arguments: {} } },
      { type: "stop", reason: "tool_use" },
    ]);
  });

  it("streams a refusal as text and stops with refusal", async () => {
    const tools = new OpenAIToolProjector(false).project([]);
    const events = [];
    for await (const event of translateChatStream(
      chunks({ refusal: "I can't." }, { finish: "stop" }),
      tools,
      undefined,
    )) {
      events.push(event);
    }
    assert.deepEqual(events, [
      { type: "text-delta", text: "I can't." },
      { type: "stop", reason: "refusal" },
    ]);
  });
});
