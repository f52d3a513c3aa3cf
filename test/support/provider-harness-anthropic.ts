// The provider contract suite's harness for the Anthropic provider: the Messages API wire
// format on a local server, and the checks of that format the suite's cases leave to it.
import assert from "node:assert/strict";
import { ModelError } from "@pseudoclaude/core";
import { type ProviderUsage, wireToolName } from "@pseudoclaude/core/provider";
import { anthropic, DEFAULT_ANTHROPIC_MODEL } from "@pseudoclaude/provider-anthropic";
import type {
  ProviderContractHarness,
  ProviderContractMessage,
  ProviderContractSentCall,
} from "@pseudoclaude/testing";
import {
  type AnthropicTurnSpec,
  anthropicError,
  anthropicEvents,
  anthropicHang,
  anthropicStream,
} from "../fixtures/providers/anthropic-wire.js";
import type { RecordedHttpRequest } from "../fixtures/providers/wire-server.js";
import {
  bearerKey,
  startHarnessServer,
  toolChoiceOf,
  type WireHarnessApi,
  wirePlayer,
} from "./provider-harness-server.js";

export const ANTHROPIC_TEST_KEY = "sk-ant-test-0123456789abcdef";

/** The API's error type for the statuses the suite answers with. */
const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  429: "rate_limit_error",
  529: "overloaded_error",
};

/** The usage of a turn as the Messages API reports it. */
function anthropicUsage(usage: ProviderUsage): NonNullable<AnthropicTurnSpec["usage"]> {
  return {
    ...(usage.inputTokens !== undefined ? { input_tokens: usage.inputTokens } : {}),
    ...(usage.outputTokens !== undefined ? { output_tokens: usage.outputTokens } : {}),
    cache_read_input_tokens: usage.cacheReadTokens ?? 0,
    cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
  };
}

const RETRY_SOON = { "retry-after-ms": "1" };

const play = wirePlayer<AnthropicTurnSpec>({
  turn: ({ usage, ...parts }) => ({ ...parts, ...(usage ? { usage: anthropicUsage(usage) } : {}) }),
  events: anthropicEvents,
  stream: (spec, cut) => anthropicStream(spec, cut),
  isTextDelta: (event) =>
    (event.data as { delta?: { type?: string } }).delta?.type === "text_delta",
  hang: anthropicHang,
  error: (reply) => {
    switch (reply.type) {
      case "http-error": {
        const type = ERROR_TYPES[reply.status] ?? "api_error";
        return anthropicError(reply.status, type, reply.message, {}, reply.requestId);
      }
      case "rate-limited":
        return anthropicError(429, "rate_limit_error", "Slow down.", RETRY_SOON);
      case "overloaded":
        return anthropicError(529, "overloaded_error", "Overloaded.", RETRY_SOON);
    }
  },
});

interface Block {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | Block[];
}

const textOf = (content: string | Block[] | undefined): string =>
  typeof content === "string"
    ? content
    : (content ?? [])
        .filter((block) => block.type === "text")
        .map((block) => block.text ?? "")
        .join("");

function readMessages(messages: Array<{ role: string; content: string | Block[] }>) {
  const read: ProviderContractMessage[] = [];
  for (const { role, content } of messages) {
    const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
    if (role === "assistant") {
      const toolCalls: ProviderContractSentCall[] = blocks
        .filter((block) => block.type === "tool_use")
        .map((block) => ({ id: block.id ?? "", name: block.name ?? "", arguments: block.input }));
      read.push({ role: "assistant", text: textOf(blocks), toolCalls });
      continue;
    }
    for (const block of blocks.filter((each) => each.type === "tool_result"))
      read.push({ role: "tool", callId: block.tool_use_id ?? "", text: textOf(block.content) });
    if (blocks.some((block) => block.type === "text"))
      read.push({ role: "user", text: textOf(blocks) });
  }
  return read;
}

const messagesApi: WireHarnessApi = {
  prefix: "",
  provider: (baseURL, settings) =>
    // The suite's settings have the provider's option names.
    anthropic({ baseURL, apiKey: ANTHROPIC_TEST_KEY, maxRetries: 0, env: {}, ...settings }),
  play,
  read: (request: RecordedHttpRequest) => ({
    model: request.body.model,
    credential: bearerKey(request),
    system: request.body.system === undefined ? undefined : textOf(request.body.system),
    maxTokens: request.body.max_tokens,
    tools: request.body.tools?.map((tool: { name: string }) => tool.name),
    toolChoice: toolChoiceOf(request.body.tool_choice, { type: "any" }),
    messages: readMessages(request.body.messages ?? []),
  }),
};

/** The dotted registry name as the API sees it: sanitized, plus a hash of the original. */
const SEARCH_WIRE = wireToolName("mcp__docs.v2__search");

/** The Anthropic provider in the provider contract suite. */
export const anthropicHarness: ProviderContractHarness<RecordedHttpRequest> = {
  name: "Anthropic Messages API",
  apiKey: ANTHROPIC_TEST_KEY,
  usageCounts: ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens"],
  start: () => startHarnessServer(messagesApi),
  wireChecks: {
    "streams-text": ({ requests: [request] }) => {
      assert.equal(request?.wire.path, "/v1/messages");
      assert.equal(
        request?.wire.headers.authorization,
        `Bearer ${ANTHROPIC_TEST_KEY}`,
        "the SDK sends the key as a bearer token",
      );
      const body = request?.wire.body;
      assert.equal(body.model, DEFAULT_ANTHROPIC_MODEL);
      assert.equal(body.stream, true);
      assert.equal(body.max_tokens, 8192);
      assert.deepEqual(body.messages, [
        { role: "user", content: [{ type: "text", text: "Say hello" }] },
      ]);
      assert.equal(body.tools, undefined, "no tools, no tools field");
    },
    "forces-tool-call": ({ requests: [forced, plain] }) => {
      assert.deepEqual(forced?.wire.body.tool_choice, { type: "any" });
      assert.equal(plain?.wire.body.tool_choice, undefined);
    },
    "parallel-tool-calls": ({ requests: [first, second] }) => {
      assert.match(SEARCH_WIRE, /^mcp__docs_v2__search_[0-9a-f]{8}$/);
      assert.deepEqual(
        first?.wire.body.tools.map((tool: { name: string }) => tool.name),
        ["get_forecast", SEARCH_WIRE],
      );
      // The calls come back under their wire names, their results in one user turn.
      const history = second?.wire.body.messages;
      assert.deepEqual(history[1], {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check both." },
          { type: "tool_use", id: "call_A", name: "get_forecast", input: { city: "Lisbon" } },
          { type: "tool_use", id: "call_B", name: SEARCH_WIRE, input: { query: "cache" } },
        ],
      });
      assert.deepEqual(history[2], {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "call_A",
            content: [{ type: "text", text: "Sunny in Lisbon, 21°C." }],
          },
          {
            type: "tool_result",
            tool_use_id: "call_B",
            content: [{ type: "text", text: "3 hits for cache" }],
          },
        ],
      });
      assert.equal(history.length, 3);
    },
    "broken-tool-json": ({ requests: [, second] }) => {
      // The API takes an object: the raw text travels inside one.
      const replayed = second?.wire.body.messages[1].content[0];
      assert.deepEqual(replayed.input, { _invalid_arguments: '{"city": "Lis' });
    },
    "http-error": ({ error }) => {
      assert.ok(ModelError.is(error));
      const status = Number(error.details?.status);
      const type = ERROR_TYPES[status];
      assert.equal(error.details?.error_type, type);
      assert.match(error.message, new RegExp(`Anthropic API error ${status} \\(${type}\\)`));
    },
    retries: ({ requests }) => {
      assert.equal(requests[2]?.wire.headers["x-stainless-retry-count"], "2");
    },
  },
};
