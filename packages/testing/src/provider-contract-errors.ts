// The provider contract suite's cases about API failures: error statuses, retries, a server
// that cannot be reached; each a ModelError with a stable code that never holds the key.
import assert from "node:assert/strict";
import { it } from "node:test";
import { inspect } from "node:util";
import { ModelError } from "@pseudoclaude/core";
import { collectEvents, rejectionOf, withContractAgent } from "./provider-contract-agent.js";
import { type ContractCases, HI } from "./provider-contract-cases.js";

/** Cases on error statuses, retries and an unreachable server. */
export function errorCases<Wire>(context: ContractCases<Wire>): void {
  for (const [status, code] of [
    [400, "bad_request"],
    [401, "authentication_failed"],
  ] as const) {
    it(`turns a ${status} into a ModelError with the status, never the key`, {
      timeout: context.timeout,
    }, async () => {
      const server = context.server();
      await withContractAgent(server.provider(), async (agent) => {
        server.reply({
          type: "http-error",
          status,
          message: `Rejected: key ${context.harness.apiKey} is not valid here.`,
          requestId: "req_contract_error",
        });
        const error = await rejectionOf(agent.run("hi"));
        assert.ok(ModelError.is(error), String(error));
        assert.equal(error.code, code);
        assert.equal(error.details?.status, status);
        assert.equal(error.details?.request_id, "req_contract_error");
        assertNoKey(error, context.harness.apiKey);
        await context.wireCheck("http-error", { error });
      });
    });
  }

  it("retries a 429 and an overload, then succeeds", { timeout: context.timeout }, async () => {
    const server = context.server();
    server.reply(
      { type: "rate-limited" },
      { type: "overloaded" },
      { type: "text", deltas: ["Finally."] },
    );
    const events = await collectEvents(server.provider({ maxRetries: 2 }), HI);
    assert.equal(server.requests().length, 3);
    assert.deepEqual(events.at(-1), { type: "stop", reason: "end_turn" });
    await context.wireCheck("retries");
  });

  it("gives up after its retries with a rate_limited ModelError", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    server.reply({ type: "rate-limited" }, { type: "rate-limited" });
    const error = await rejectionOf(collectEvents(server.provider({ maxRetries: 1 }), HI));
    assert.ok(ModelError.is(error), String(error));
    assert.equal(error.code, "rate_limited");
    assert.equal(error.details?.status, 429);
    assert.equal(server.requests().length, 2);
    await context.wireCheck("gives-up-retrying", { error });
  });

  it("reports a server it cannot reach as connection_failed, never the key", {
    timeout: context.timeout,
  }, async () => {
    const closed = await context.harness.start();
    const unreachable = closed.provider();
    await closed.close();
    const error = await rejectionOf(collectEvents(unreachable, HI));
    assert.ok(ModelError.is(error), String(error));
    assert.equal(error.code, "connection_failed");
    assertNoKey(error, context.harness.apiKey);
    await context.wireCheck("unreachable", { error });
  });
}

/** The key appears nowhere in the error: not in its message, details or causes. */
function assertNoKey(error: Error, key: string): void {
  assert.ok(!error.message.includes(key), error.message);
  assert.ok(
    !inspect(error, { depth: 10 }).includes(key),
    "the key is in the error's details or cause",
  );
}
