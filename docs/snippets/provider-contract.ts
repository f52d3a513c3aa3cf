// The code of docs/write-a-provider.md's section on the provider contract suite: compiled by
// CI, so the guide cannot go stale. What the region calls but does not define (your provider,
// your API's local test server and how to read its requests) is declared below it.
// #region harness
import { describeProviderContract, type ProviderContractHarness } from "@pseudoclaude/testing";

const KEY = "test-key-0123456789";

const harness: ProviderContractHarness<Recorded> = {
  name: "My API",
  apiKey: KEY, // the suite checks it is sent, and that no error ever shows it
  usageCounts: ["inputTokens", "outputTokens"], // exactly the counts your usage events carry
  async start() {
    const server = await startMyApiServer(); // node:http on 127.0.0.1, port 0
    const read = (request: Recorded) => ({ wire: request, ...readRequest(request) });
    return {
      // The suite's settings (model, contextWindow, maxTokens, maxRetries) as your options.
      provider: (settings = {}) =>
        myProvider({ baseURL: server.url, apiKey: KEY, maxRetries: 0, ...settings }),
      // Replies in the suite's terms (text and usage, tool calls, an error status, a dropped
      // connection, a hang...): your server writes each in your API's wire format.
      reply: (...replies) => {
        for (const reply of replies)
          server.queue((request) => (typeof reply === "function" ? reply(read(request)) : reply));
      },
      requests: () => server.received.map(read),
      pending: () => server.pending(),
      reset: () => server.reset(),
      close: () => server.close(),
    };
  },
  // Optional: assertions on your own wire format, run at the end of the case they name.
  wireChecks: {
    "streams-text": ({ requests: [request] }) => {
      if (request?.wire.path !== "/v1/turns") throw new Error(`sent to ${request?.wire.path}`);
    },
  },
};

describeProviderContract(harness);

// #endregion

import type { Provider } from "@pseudoclaude/core";
import type { ProviderContractReply, ProviderContractRequest } from "@pseudoclaude/testing";

/** A request as your server recorded it. */
interface Recorded {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Your API's local test server: it answers queued replies in order and records requests. */
interface MyApiServer {
  readonly url: string;
  readonly received: Recorded[];
  queue(reply: (request: Recorded) => ProviderContractReply): void;
  pending(): number;
  reset(): void;
  close(): Promise<void>;
}

declare function startMyApiServer(): Promise<MyApiServer>;
declare function myProvider(options: {
  baseURL: string;
  apiKey: string;
  model?: string;
  contextWindow?: number;
  maxTokens?: number;
  maxRetries?: number;
}): Provider;
/** A recorded request in the suite's terms: model, key, system prompt, tools, messages. */
declare function readRequest(request: Recorded): Omit<ProviderContractRequest<Recorded>, "wire">;
