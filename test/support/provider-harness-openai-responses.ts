// The provider contract suite's harness for the OpenAI provider on the Responses API: that wire
// format on a local server, and the checks of it the suite's cases leave to it.
import assert from "node:assert/strict";
import { wireToolName } from "@pseudoclaude/core/provider";
import { DEFAULT_OPENAI_MODEL } from "@pseudoclaude/provider-openai";
import type { ProviderContractMessage } from "@pseudoclaude/testing";
import {
  responsesEvents,
  responsesHang,
  responsesStream,
} from "../fixtures/providers/openai-wire.js";
import type { RecordedHttpRequest, SseEvent } from "../fixtures/providers/wire-server.js";
import { openaiHarness } from "./provider-harness-openai.js";
import { bearerKey, parsedArguments, toolChoiceOf } from "./provider-harness-server.js";

const isTextDelta = (event: SseEvent) => event.event === "response.output_text.delta";

interface InputItem {
  type?: string;
  role?: string;
  content?: string | Array<{ type: string; text?: string }>;
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: string | Array<{ type: string; text?: string }>;
}

const textOf = (content: InputItem["content"]): string =>
  typeof content === "string"
    ? content
    : (content ?? []).map((part) => (part.type.endsWith("text") ? (part.text ?? "") : "")).join("");

/** Input items as messages: an assistant message and the function calls after it are one turn. */
function readInput(items: readonly InputItem[]): ProviderContractMessage[] {
  const read: ProviderContractMessage[] = [];
  for (const item of items) {
    if (item.type === "function_call") {
      const call = {
        id: item.call_id ?? "",
        name: item.name ?? "",
        arguments: parsedArguments(item.arguments ?? ""),
      };
      const last = read.at(-1);
      if (last?.role === "assistant")
        read[read.length - 1] = { ...last, toolCalls: [...last.toolCalls, call] };
      else read.push({ role: "assistant", text: "", toolCalls: [call] });
    } else if (item.type === "function_call_output") {
      read.push({ role: "tool", callId: item.call_id ?? "", text: textOf(item.output) });
    } else if (item.role === "assistant") {
      read.push({ role: "assistant", text: textOf(item.content), toolCalls: [] });
    } else if (item.role === "user") {
      read.push({ role: "user", text: textOf(item.content) });
    }
  }
  return read;
}

const SEARCH_WIRE = wireToolName("mcp__docs.v2__search");

/** The OpenAI provider on the Responses API in the provider contract suite. */
export const openaiResponsesHarness = openaiHarness({
  name: "OpenAI Responses API",
  api: "responses",
  fixtures: {
    events: (spec) => responsesEvents(spec),
    stream: (spec, cut) => responsesStream(spec, cut),
    isTextDelta,
    hang: responsesHang,
  },
  read: (request: RecordedHttpRequest) => ({
    model: request.body.model,
    credential: bearerKey(request),
    system: request.body.instructions,
    maxTokens: request.body.max_output_tokens,
    tools: request.body.tools?.map((tool: { name: string }) => tool.name),
    toolChoice: toolChoiceOf(request.body.tool_choice, "required"),
    messages: readInput(request.body.input ?? []),
  }),
  wireChecks: {
    "streams-text": ({ requests: [request] }) => {
      assert.equal(request?.wire.path, "/v1/responses");
      assert.deepEqual(request?.wire.body, {
        model: DEFAULT_OPENAI_MODEL,
        input: [{ role: "user", content: "Say hello" }],
        stream: true,
        store: false,
        instructions: "Be brief.",
      });
    },
    "parallel-tool-calls": ({ requests: [first, second] }) => {
      assert.deepEqual(
        first?.wire.body.tools.map((tool: { name: string }) => tool.name),
        ["get_forecast", SEARCH_WIRE],
      );
      assert.deepEqual(second?.wire.body.input.slice(1), [
        { role: "assistant", content: "Let me check both." },
        {
          type: "function_call",
          call_id: "call_A",
          name: "get_forecast",
          arguments: '{"city":"Lisbon"}',
        },
        {
          type: "function_call",
          call_id: "call_B",
          name: SEARCH_WIRE,
          arguments: '{"query":"cache"}',
        },
        { type: "function_call_output", call_id: "call_A", output: "Sunny in Lisbon, 21°C." },
        { type: "function_call_output", call_id: "call_B", output: "3 hits for cache" },
      ]);
    },
  },
});
