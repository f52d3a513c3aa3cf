import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolDefinition } from "@pseudoclaude/core";
import type { Message, ProviderEvent } from "@pseudoclaude/core/provider";
import type OpenAI from "openai";
import { toResponsesInput } from "../src/responses-input.js";
import { translateResponsesStream } from "../src/responses-stream.js";
import { OpenAIToolProjector } from "../src/wire-tools.js";

const ISSUE: ToolDefinition = {
  name: "mcp__github__create_issue",
  description: "Create an issue.",
  inputSchema: { type: "object", properties: { title: { type: "string" } } },
  safety: "read_only",
  source: "mcp:github",
  meta: { server: "github", remote_name: "create_issue" },
};

/** A completed response whose one output item is a call of the issue tool in `github`. */
async function* namespacedCall(): AsyncGenerator<OpenAI.Responses.ResponseStreamEvent> {
  const item = {
    id: "fc_1",
    type: "function_call",
    status: "completed",
    call_id: "call_1",
    namespace: "github",
    name: ISSUE.name,
    arguments: '{"title":"Bug"}',
  };
  yield { type: "response.output_item.done", output_index: 0, sequence_number: 1, item } as never;
  yield { type: "response.completed", sequence_number: 2, response: { usage: null } } as never;
}

describe("the namespace of an OpenAI function call", () => {
  it("is kept with the turn and goes back with the call while the hosted search is on", async () => {
    const tools = new OpenAIToolProjector(false).project([ISSUE]);
    const events: ProviderEvent[] = [];
    for await (const event of translateResponsesStream(namespacedCall(), tools, undefined))
      events.push(event);
    const call = events.find((event) => event.type === "tool-call");
    assert.deepEqual(call, {
      type: "tool-call",
      call: { id: "call_1", name: ISSUE.name, arguments: { title: "Bug" } },
    });
    const data = events.find((event) => event.type === "provider-data");
    assert.deepEqual(data, {
      type: "provider-data",
      data: { openai: { items: [], namespaces: { call_1: "github" } } },
    });

    const messages: Message[] = [
      { role: "user", content: "File it." },
      {
        role: "assistant",
        text: "",
        toolCalls: [{ id: "call_1", name: ISSUE.name, arguments: { title: "Bug" } }],
        ...(data?.type === "provider-data" ? { providerData: data.data } : {}),
      },
    ];
    const [, hosted] = toResponsesInput(messages, tools.names, { hostedToolSearch: true });
    assert.deepEqual(hosted, {
      type: "function_call",
      call_id: "call_1",
      name: ISSUE.name,
      namespace: "github",
      arguments: '{"title":"Bug"}',
    });
    // A request without the hosted search has no namespaces: the call goes back plain.
    const [, plain] = toResponsesInput(messages, tools.names);
    assert.equal((plain as { namespace?: string }).namespace, undefined);
  });
});
