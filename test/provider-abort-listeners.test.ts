// Long runs must not pile abort listeners onto the signals they share: every listener the
// agent loop, a tool call or a provider SDK adds to a run's or a request's signal is removed
// when that request or call ends. Each provider (OpenAI chat and responses, Anthropic) makes 50
// model requests against the local wire servers, with process warnings failing the test and
// the listener count of the signals measured after every request.
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { after, afterEach, before, describe, it } from "node:test";
import type { Provider } from "@pseudoclaude/core";
import type { ProviderRequest } from "@pseudoclaude/core/provider";
import { anthropic } from "@pseudoclaude/provider-anthropic";
import { openai } from "@pseudoclaude/provider-openai";
import { anthropicStream } from "./fixtures/providers/anthropic-wire.js";
import { chatStream, responsesStream } from "./fixtures/providers/openai-wire.js";
import { startWireServer, type WireReply } from "./fixtures/providers/wire-server.js";
import { collect, providerAgent } from "./support/provider-agents.js";

const REQUESTS = 50;

interface ProviderCase {
  name: string;
  prefix: string;
  make: (baseURL: string) => Provider;
  turn: (spec: {
    text?: string;
    toolCalls?: Array<{ id: string; name: string; input: unknown }>;
  }) => WireReply;
}

const cases: ProviderCase[] = [
  {
    name: "OpenAI chat completions",
    prefix: "/v1",
    make: (baseURL) => openai({ baseURL, apiKey: "sk-test", maxRetries: 0, env: {} }),
    turn: (spec) => chatStream(spec),
  },
  {
    name: "OpenAI responses",
    prefix: "/v1",
    make: (baseURL) =>
      openai({ api: "responses", baseURL, apiKey: "sk-test", maxRetries: 0, env: {} }),
    turn: (spec) => responsesStream(spec),
  },
  {
    name: "Anthropic messages",
    prefix: "",
    make: (baseURL) => anthropic({ baseURL, apiKey: "sk-ant-test", maxRetries: 0, env: {} }),
    turn: (spec) => anthropicStream(spec),
  },
];

/** The provider, reporting the abort listeners on each request's signal after it ends. */
function watched(provider: Provider, counts: number[]): Provider {
  const stream = async function* (request: ProviderRequest) {
    try {
      yield* provider.stream(request);
    } finally {
      if (request.signal) counts.push(getEventListeners(request.signal, "abort").length);
    }
  };
  return new Proxy(provider, {
    get: (target, key, receiver) =>
      key === "stream" ? stream : Reflect.get(target, key, receiver),
  });
}

for (const providerCase of cases) {
  describe(`abort listeners: ${providerCase.name}`, () => {
    let server: Awaited<ReturnType<typeof startWireServer>>;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    before(async () => {
      server = await startWireServer(providerCase.prefix);
      process.on("warning", onWarning);
    });
    afterEach(() => {
      const seen = warnings.splice(0);
      assert.deepEqual(
        seen.map((warning) => `${warning.name}: ${warning.message}`),
        [],
        "no process warnings (MaxListenersExceededWarning)",
      );
      assert.equal(server.pending(), 0, "every scripted reply was used");
      server.reset();
    });
    after(async () => {
      process.off("warning", onWarning);
      await server.close();
    });

    it(`removes its listener from the caller's signal after each of ${REQUESTS} requests`, async () => {
      const provider = providerCase.make(server.baseURL);
      const signal = new AbortController().signal;
      const counts: number[] = [];
      for (let index = 0; index < REQUESTS; index++) {
        server.reply(providerCase.turn({ text: `answer ${index}` }));
        await collect(provider, { messages: [{ role: "user", content: "hi" }], signal });
        counts.push(getEventListeners(signal, "abort").length);
      }
      assert.deepEqual(new Set(counts), new Set([0]), `listeners after each request: ${counts}`);
    });

    it(`keeps the run's signal bounded over a run of ${REQUESTS} model requests with tool calls`, async (t) => {
      const counts: number[] = [];
      const agent = await providerAgent(watched(providerCase.make(server.baseURL), counts));
      try {
        for (let index = 1; index < REQUESTS; index++)
          server.reply(
            providerCase.turn({
              toolCalls: [
                { id: `call_${index}`, name: "get_forecast", input: { city: `C${index}` } },
              ],
            }),
          );
        server.reply(providerCase.turn({ text: "Done." }));
        const caller = new AbortController();
        const result = await agent.run("Forecast fifty cities.", {
          signal: caller.signal,
          maxTurns: REQUESTS + 5,
        });
        assert.equal(result.text, "Done.");
        assert.equal(server.requests.length, REQUESTS);
        assert.equal(counts.length, REQUESTS);
        // Every listener the request, its SDK and its tool calls added is gone when it ends.
        assert.deepEqual(
          new Set(counts),
          new Set([0]),
          `listeners on the run's signal after each request: ${counts}`,
        );
        assert.equal(getEventListeners(caller.signal, "abort").length, 0, "the caller's signal");
        t.diagnostic(
          `most abort listeners on the run's signal after a request: ${Math.max(...counts)}`,
        );
      } finally {
        await agent.close();
      }
    });
  });
}
