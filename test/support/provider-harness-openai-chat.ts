// The provider contract suite's harness for the OpenAI provider on Chat Completions: that wire
// format on a local server, and the checks of it the suite's cases leave to it.
import assert from "node:assert/strict";
import { wireToolName } from "@pseudoclaude/core/provider";
import { DEFAULT_OPENAI_MODEL } from "@pseudoclaude/provider-openai";
import type { ProviderContractMessage } from "@pseudoclaude/testing";
import { chatEvents, chatHang, chatStream } from "../fixtures/providers/openai-wire.js";
import type { RecordedHttpRequest, SseEvent } from "../fixtures/providers/wire-server.js";
import { OPENAI_TEST_KEY, openaiHarness } from "./provider-harness-openai.js";
import { bearerKey, parsedArguments, toolChoiceOf } from "./provider-harness-server.js";

/** A chunk's text, where it carries some (the first chunk carries an empty one). */
const isTextDelta = (event: SseEvent) => {
  const chunk = event.data as { choices?: Array<{ delta?: { content?: unknown } }> };
  const content = chunk.choices?.[0]?.delta?.content;
  return typeof content === "string" && content !== "";
};

interface ChatMessage {
  role: string;
  content?: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

const textOf = (content: ChatMessage["content"]): string =>
  typeof content === "string"
    ? content
    : (content ?? []).map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");

function readMessages(messages: readonly ChatMessage[]): ProviderContractMessage[] {
  return messages
    .filter((message) => message.role !== "system")
    .map((message): ProviderContractMessage => {
      if (message.role === "assistant")
        return {
          role: "assistant",
          text: textOf(message.content),
          toolCalls: (message.tool_calls ?? []).map((call) => ({
            id: call.id,
            name: call.function.name,
            arguments: parsedArguments(call.function.arguments),
          })),
        };
      if (message.role === "tool")
        return { role: "tool", callId: message.tool_call_id ?? "", text: textOf(message.content) };
      return { role: "user", text: textOf(message.content) };
    });
}

const SEARCH_WIRE = wireToolName("mcp__docs.v2__search");

/** The OpenAI provider on Chat Completions in the provider contract suite. */
export const openaiChatHarness = openaiHarness({
  name: "OpenAI Chat Completions",
  api: "chat",
  fixtures: {
    events: (spec) => chatEvents(spec),
    stream: (spec, cut) => chatStream(spec, cut),
    isTextDelta,
    hang: chatHang,
  },
  read: (request: RecordedHttpRequest) => {
    const messages: ChatMessage[] = request.body.messages ?? [];
    const system = messages.find((message) => message.role === "system");
    return {
      model: request.body.model,
      credential: bearerKey(request),
      system: system ? textOf(system.content) : undefined,
      maxTokens: request.body.max_completion_tokens ?? request.body.max_tokens,
      tools: request.body.tools?.map((tool: { function: { name: string } }) => tool.function.name),
      toolChoice: toolChoiceOf(request.body.tool_choice, "required"),
      messages: readMessages(messages),
    };
  },
  wireChecks: {
    "streams-text": ({ requests: [request] }) => {
      assert.equal(request?.wire.path, "/v1/chat/completions");
      assert.equal(request?.wire.headers.authorization, `Bearer ${OPENAI_TEST_KEY}`);
      assert.deepEqual(request?.wire.body, {
        model: DEFAULT_OPENAI_MODEL,
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Say hello" },
        ],
        stream: true,
        stream_options: { include_usage: true },
      });
    },
    "parallel-tool-calls": ({ requests: [first, second] }) => {
      const tools = first?.wire.body.tools;
      assert.deepEqual(
        tools.map((tool: { type: string; function: { name: string } }) => [
          tool.type,
          tool.function.name,
        ]),
        [
          ["function", "get_forecast"],
          ["function", SEARCH_WIRE],
        ],
      );
      assert.equal(tools[0].function.strict, undefined, "non-strict by default");
      assert.deepEqual(second?.wire.body.messages.slice(2), [
        {
          role: "assistant",
          content: "Let me check both.",
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
    },
    "broken-tool-json": ({ requests: [, second] }) => {
      const replayed = second?.wire.body.messages[2].tool_calls[0].function.arguments;
      assert.equal(replayed, '{"city": "Lis', "the model sees what it sent");
    },
  },
});
