// The behaviour every model provider owes the kernel, as node:test cases any provider can run
// against a local server that speaks its API. The cases know the Provider contract only; the
// harness turns their replies into the API's wire format and reads the requests back.
import assert from "node:assert/strict";
import { after, afterEach, before, describe } from "node:test";
import { answerCases } from "./provider-contract-answers.js";
import type { ContractCases } from "./provider-contract-cases.js";
import { errorCases } from "./provider-contract-errors.js";
import type {
  ProviderContractHarness,
  ProviderContractServer,
} from "./provider-contract-harness.js";
import { streamCases } from "./provider-contract-streams.js";
import { toolCallCases } from "./provider-contract-tool-calls.js";

/**
 * Register the provider contract suite for one provider: a `describe` block of node:test cases
 * (streaming, tool calls, tool names the API refuses, errors, retries, broken streams, abort)
 * that start the harness's server once and script it case by case. Call it at the top level
 * of a test file, e.g. `describeProviderContract(myHarness)`.
 */
export function describeProviderContract<Wire>(harness: ProviderContractHarness<Wire>): void {
  describe(`Provider contract: ${harness.name}`, () => {
    let server: ProviderContractServer<Wire> | undefined;
    const running = () => {
      if (!server) throw new Error("The harness's server has not started.");
      return server;
    };
    before(async () => {
      server = await harness.start();
    });
    afterEach(() => {
      assert.equal(running().pending(), 0, "every scripted reply was used");
      running().reset();
    });
    after(() => server?.close());

    const context: ContractCases<Wire> = {
      harness,
      server: running,
      timeout: harness.timeoutMs ?? 10_000,
      wireCheck: async (name, seen = {}) =>
        harness.wireChecks?.[name]?.({ requests: running().requests(), ...seen }),
    };
    answerCases(context);
    toolCallCases(context);
    errorCases(context);
    streamCases(context);
  });
}
