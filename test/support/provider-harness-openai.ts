// What the contract harnesses of both OpenAI APIs share: the provider they create, usage and
// errors as both APIs send them, and the checks of what both send alike.
import assert from "node:assert/strict";
import { ModelError } from "@pseudoclaude/core";
import { type OpenAIApi, openai } from "@pseudoclaude/provider-openai";
import type { ProviderContractHarness } from "@pseudoclaude/testing";
import { type OpenAITurnSpec, openaiError } from "../fixtures/providers/openai-wire.js";
import type { RecordedHttpRequest, WireReply } from "../fixtures/providers/wire-server.js";
import {
  type ErrorReply,
  startHarnessServer,
  type TurnParts,
  type WireFixtures,
  type WireHarnessApi,
  wirePlayer,
} from "./provider-harness-server.js";

export const OPENAI_TEST_KEY = "sk-proj-test-0123456789abcdef";

/** A turn as both OpenAI APIs spell it: cached tokens are counted inside the input tokens. */
function openaiTurn({ usage, ...parts }: TurnParts): OpenAITurnSpec {
  if (!usage) return parts;
  const usageSpec = {
    prompt_tokens: (usage.inputTokens ?? 0) + (usage.cacheReadTokens ?? 0),
    completion_tokens: usage.outputTokens ?? 0,
    cached_tokens: usage.cacheReadTokens ?? 0,
  };
  return { ...parts, usage: usageSpec };
}

const RETRY_SOON = { "retry-after-ms": "1" };

/** An error the suite scripted, as both OpenAI APIs send it. */
function openaiErrorReply(reply: ErrorReply): WireReply {
  switch (reply.type) {
    case "http-error":
      // A refused key, as OpenAI reports it whatever the status: with a code of its own.
      return openaiError(
        reply.status,
        { message: reply.message, type: "invalid_request_error", code: "invalid_api_key" },
        { "x-request-id": reply.requestId },
      );
    case "rate-limited":
      return openaiError(
        429,
        { message: "Rate limit reached.", type: "requests", code: "rate_limit_exceeded" },
        RETRY_SOON,
      );
    case "overloaded":
      return openaiError(503, { message: "Try again.", type: "server_error" }, RETRY_SOON);
  }
}

type WireChecks = NonNullable<ProviderContractHarness<RecordedHttpRequest>["wireChecks"]>;

/** The checks both OpenAI APIs pass alike: the forced tool choice, errors and retries. */
const SHARED_CHECKS: WireChecks = {
  "forces-tool-call": ({ requests: [forced, plain] }) => {
    assert.equal(forced?.wire.body.tool_choice, "required");
    assert.equal(plain?.wire.body.tool_choice, undefined);
  },
  "http-error": ({ error }) => {
    assert.ok(ModelError.is(error));
    assert.equal(error.details?.error_code, "invalid_api_key");
    assert.match(
      error.message,
      new RegExp(`OpenAI API error ${error.details?.status} \\(invalid_request_error\\)`),
    );
    assert.equal(error.cause, undefined, "a cause that holds the key is left out");
  },
  retries: ({ requests }) => {
    assert.equal(requests[2]?.wire.headers["x-stainless-retry-count"], "2");
  },
};

/** What one OpenAI API's harness adds to what both share. */
export interface OpenAIHarnessSpec {
  name: string;
  api: OpenAIApi;
  /** The API's stream fixtures; turns and errors are spelt alike in both APIs. */
  fixtures: Omit<WireFixtures<OpenAITurnSpec>, "turn" | "error">;
  read: WireHarnessApi["read"];
  /** The API's own checks, on top of the shared ones. */
  wireChecks: WireChecks;
}

/** The contract harness of one OpenAI API. */
export function openaiHarness(
  spec: OpenAIHarnessSpec,
): ProviderContractHarness<RecordedHttpRequest> {
  const api: WireHarnessApi = {
    prefix: "/v1",
    // The suite's settings have the provider's option names.
    provider: (baseURL, settings) =>
      openai({
        api: spec.api,
        baseURL,
        apiKey: OPENAI_TEST_KEY,
        maxRetries: 0,
        env: {},
        ...settings,
      }),
    play: wirePlayer({ ...spec.fixtures, turn: openaiTurn, error: openaiErrorReply }),
    read: spec.read,
  };
  return {
    name: spec.name,
    apiKey: OPENAI_TEST_KEY,
    usageCounts: ["inputTokens", "outputTokens", "cacheReadTokens"],
    start: () => startHarnessServer(api),
    wireChecks: { ...SHARED_CHECKS, ...spec.wireChecks },
  };
}
