// The provider contract suite's cases about streams that do not end well: a dropped
// connection, a stream ended early, and a request aborted while the server waits.
import assert from "node:assert/strict";
import { it } from "node:test";
import { ModelError } from "@pseudoclaude/core";
import type { ProviderEvent } from "@pseudoclaude/core/provider";
import { collectEvents, rejectionOf, withContractAgent } from "./provider-contract-agent.js";
import { type ContractCases, HI } from "./provider-contract-cases.js";
import type { ProviderContractServer } from "./provider-contract-harness.js";

/** Cases on broken streams and on aborting. */
export function streamCases<Wire>(context: ContractCases<Wire>): void {
  it("fails with a ModelError when the connection drops mid-stream, without hanging", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    const deltas = ["This ", "answer ", "will ", "be ", "cut ", "short"];
    server.reply(
      { type: "drop-mid-stream", deltas, after: 2 },
      { type: "drop-mid-stream", deltas, after: 1 },
    );
    const seen: ProviderEvent[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of server.provider().stream({ system: "", tools: [], ...HI }))
          seen.push(event);
      })(),
    );
    assert.ok(ModelError.is(error), String(error));
    assert.equal(error.code, "stream_interrupted");
    assert.deepEqual(seen, [
      { type: "text-delta", text: "This " },
      { type: "text-delta", text: "answer " },
    ]);
    // In a run: the run fails with it, and what arrived before the cut was streamed.
    await withContractAgent(server.provider(), async (agent) => {
      const texts: string[] = [];
      agent.on("text-delta", ({ text }) => texts.push(text));
      const failure = await rejectionOf(agent.run("hi"));
      assert.ok(ModelError.is(failure), String(failure));
      assert.equal(failure.code, "stream_interrupted");
      assert.deepEqual(texts, ["This "]);
      await context.wireCheck("drop-mid-stream", { error });
    });
  });

  it("fails with stream_incomplete when the server ends the stream early", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    server.reply({ type: "end-stream-early", deltas: ["Half ", "an ", "answer"], after: 1 });
    const error = await rejectionOf(collectEvents(server.provider(), HI));
    assert.ok(ModelError.is(error), String(error));
    assert.equal(error.code, "stream_incomplete");
    await context.wireCheck("end-stream-early", { error });
  });

  it("aborts a running request: the run stops as aborted and the connection closes", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    await withContractAgent(server.provider(), async (agent) => {
      const controller = new AbortController();
      const hang = hangingReply(server);
      const running = agent.run("think hard", { signal: controller.signal });
      await hang.opened;
      controller.abort();
      const result = await running;
      assert.equal(result.stopReason, "aborted");
      // The provider closed the connection; the case would time out otherwise.
      await hang.closed;
      await context.wireCheck("abort");
    });
  });

  it("stops quietly when the request's signal aborts, and closes the connection", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    const controller = new AbortController();
    const hang = hangingReply(server);
    // Read as the agent reads, but never end the iteration early: the signal alone must
    // stop the stream, as it does for a caller that only aborts.
    const stream = server
      .provider()
      .stream({ system: "", tools: [], ...HI, signal: controller.signal });
    const reading = (async () => {
      for await (const _event of stream);
    })();
    await hang.opened;
    controller.abort();
    await reading; // Ends without an error: an aborted request is not a failure.
    await hang.closed;
    await context.wireCheck("abort-stream");
  });
}

/**
 * Script a stream that starts and then waits until the client hangs up: `opened` settles once
 * it started, `closed` once the client closed the connection.
 */
function hangingReply<Wire>(server: ProviderContractServer<Wire>): {
  opened: Promise<void>;
  closed: Promise<void>;
} {
  let opened!: () => void;
  let closed!: () => void;
  const started = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const ended = new Promise<void>((resolve) => {
    closed = resolve;
  });
  server.reply({ type: "hang", opened, closed });
  return { opened: started, closed: ended };
}
