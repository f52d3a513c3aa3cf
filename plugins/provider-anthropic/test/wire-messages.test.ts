import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toolFailure, toolSuccess } from "@pseudoclaude/core";
import { createToolNameMap, type Message } from "@pseudoclaude/core/provider";
import { toAnthropicMessages, toToolResultBlock } from "../src/wire-messages.js";
import { toInputSchema } from "../src/wire-tools.js";

const names = createToolNameMap(["get_forecast"]);

describe("Anthropic message projection", () => {
  it("merges consecutive turns of one role and drops empty ones", () => {
    const messages: Message[] = [
      { role: "user", content: "first" },
      { role: "assistant", text: "", toolCalls: [] },
      { role: "user", content: "second" },
    ];
    assert.deepEqual(toAnthropicMessages(messages, names), [
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "second" },
        ],
      },
    ]);
  });

  it("puts the results of one assistant turn into one user turn, in order", () => {
    const messages: Message[] = [
      { role: "user", content: "go" },
      {
        role: "assistant",
        text: "",
        toolCalls: [
          { id: "a", name: "get_forecast", arguments: { city: "A" } },
          { id: "b", name: "get_forecast", arguments: { city: "B" } },
        ],
      },
      { role: "tool", callId: "a", toolName: "get_forecast", result: toolSuccess("one") },
      { role: "tool", callId: "b", toolName: "get_forecast", result: toolSuccess("two") },
    ];
    const wire = toAnthropicMessages(messages, names);
    assert.equal(wire.length, 3);
    assert.deepEqual(
      (wire[2]!.content as Array<{ tool_use_id: string }>).map((block) => block.tool_use_id),
      ["a", "b"],
    );
    assert.deepEqual(
      (wire[1]!.content as unknown[]).length,
      2,
      "no empty text block before the calls",
    );
  });

  it("turns kinds the API cannot read into placeholders, even in hand-built history", () => {
    const block = toToolResultBlock(
      "c",
      toolSuccess([
        { type: "image", data: "AAAA", mimeType: "image/svg+xml" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inline text" } },
        { type: "resource_link", uri: "file:///b.pdf", name: "b.pdf", mimeType: "application/pdf" },
      ]),
    );
    assert.deepEqual(block.content, [
      { type: "text", text: "[image content: image/svg+xml, 3 bytes, not shown to this model]" },
      { type: "text", text: "inline text" },
      { type: "text", text: "[resource link: file:///b.pdf (b.pdf), application/pdf]" },
    ]);
  });

  it("flags failures and gives an empty failure its message", () => {
    const failed = toToolResultBlock("c", toolFailure("timeout", "Too slow.", { content: [] }));
    assert.deepEqual(failed, {
      type: "tool_result",
      tool_use_id: "c",
      is_error: true,
      content: [{ type: "text", text: "Too slow." }],
    });
    assert.deepEqual(toToolResultBlock("c", toolSuccess([])), {
      type: "tool_result",
      tool_use_id: "c",
    });
  });

  it("sends tool input as an object even when the model's JSON was broken", () => {
    const wire = toAnthropicMessages(
      [
        {
          role: "assistant",
          text: "",
          toolCalls: [{ id: "x", name: "get_forecast", arguments: '{"a": 1}' }],
        },
      ],
      names,
    );
    assert.deepEqual((wire[0]!.content as Array<{ input: unknown }>)[0]!.input, { a: 1 });
  });
});

describe("Anthropic input schema projection", () => {
  it("sends a copy that is always an object schema, leaving the original untouched", () => {
    const original = { properties: { a: { type: "string" } } };
    const projected = toInputSchema(original);
    assert.deepEqual(projected, { type: "object", properties: { a: { type: "string" } } });
    assert.deepEqual(original, { properties: { a: { type: "string" } } });
    assert.deepEqual(toInputSchema({ type: "string" }), { type: "object" });
  });
});
