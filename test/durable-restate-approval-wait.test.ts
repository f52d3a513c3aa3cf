// Durable runs waiting for an approval on the real Restate server from npm (loopback, started
// and stopped here): a follower waits with the run at the cost of a few invocations, and the
// server alone holds a waiting run while no worker runs at all.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import {
  DurableClient,
  type DurableEvent,
  followRunEvents,
} from "@pseudoclaude/durable-restate/client";
import type { ScriptedStep } from "@pseudoclaude/testing";
import {
  type DurableRestate,
  ledgerOf,
  startDurableRestate,
  waitFor,
} from "./support/durable-restate.js";
import { freePort, type RestateServer } from "./support/restate-server.js";

const TIMEOUT = { timeout: 120_000 };

let restate: DurableRestate;
let server: RestateServer;
let dir: string;
before(async () => {
  restate = await startDurableRestate();
  ({ server, dir } = restate);
});
after(async () => {
  await restate?.stop();
});

describe("durable runs on Restate (the real server)", () => {
  it(
    "a followed run waiting for an approval costs a few invocations, and its events still arrive at once",
    TIMEOUT,
    async (t) => {
      const script: ScriptedStep[] = [
        { tool_calls: [{ id: "f1", name: "mcp__ledger__send", arguments: { id: "memo" } }] },
        { text: "sent the memo" },
      ];
      const ledger = path.join(dir, "follow.log");
      const port = await freePort();
      const worker = await restate.startWorker(port, script, ledger, { DURABLE_MODE: "default" });
      const client = new DurableClient({ ingress: server.ingress, admin: server.admin });
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await restate.submit("followed", "go");
        const arrived: Array<{ event: DurableEvent; at: number }> = [];
        const follower = followRunEvents(client, "followed", run.invocationId, (event) =>
          arrived.push({ event, at: Date.now() }),
        );
        try {
          const waiting = await waitFor("the approval-waiting event", async () => {
            const found = arrived.find(({ event }) => event.type === "approval-waiting");
            return found?.event.type === "approval-waiting" ? found.event.data : undefined;
          });
          // The run waits for a person; the follower waits with it.
          const before = await restate.followInvocations();
          const WAIT_MS = 8_000;
          await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
          const during = (await restate.followInvocations()) - before;
          t.diagnostic(`follow invocations while the run waited ${WAIT_MS} ms: ${during}`);
          // Polling every 200 ms made about 40 here; a long-poll makes one wait (events +
          // listen), or two when a wait began just before.
          assert.ok(during <= 4, `${during} invocations in ${WAIT_MS} ms of waiting`);
          const answered = Date.now();
          const resolved = await fetch(
            `${server.ingress}/restate/awakeables/${waiting.id}/resolve`,
            {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify("allow"),
            },
          );
          assert.ok(resolved.ok, await resolved.text());
          // The events after the answer reach the follower while it follows (not on drain).
          const ended = await waitFor("the call's end through the follower", async () =>
            arrived.find(({ event }) => event.type === "tool-call-end"),
          );
          t.diagnostic(`tool-call-end arrived ${ended.at - answered} ms after the answer`);
          assert.ok(ended.at - answered < 3_000, `${ended.at - answered} ms`);
          assert.equal((await run.result()).text, "sent the memo");
        } finally {
          follower.stop();
          await follower.drain();
        }
        const types = arrived.map(({ event }) => event.type);
        assert.equal(types.filter((type) => type === "run-start").length, 1, types.join());
        assert.equal(types.at(-1), "run-end", types.join());
      } finally {
        await worker.kill();
      }
    },
  );
  it(
    "a run waiting for an approval holds no worker: every worker stopped, one started later, approved, it completes",
    TIMEOUT,
    async () => {
      const script: ScriptedStep[] = [
        { tool_calls: [{ id: "a1", name: "mcp__ledger__send", arguments: { id: "report" } }] },
        { text: "sent after approval" },
      ];
      const ledger = path.join(dir, "approve.log");
      const port = await freePort();
      let worker = await restate.startWorker(port, script, ledger, { DURABLE_MODE: "default" });
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await restate.submit("waits", "go");
        const [waiting] = await waitFor("the approval", async () => {
          const list = await restate.pending("waits");
          return list.length > 0 ? list : undefined;
        });
        assert.equal(waiting!.interrupted, false);
        assert.equal(waiting!.tool, "mcp__ledger__send");
        // No worker at all while the run waits: the server alone holds it (backing off, as its
        // worker died; suspended, had the worker let it go idle) until a worker comes back.
        await worker.kill();
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        assert.match(
          String(await restate.invocationStatus(run.invocationId)),
          /^(backing-off|suspended)$/,
        );
        worker = await restate.startWorker(port, script.slice(1), ledger, {
          DURABLE_MODE: "default",
        });
        assert.deepEqual(
          (await restate.pending("waits")).map((item) => item.id),
          [waiting!.id],
          "the new worker sees the same approval waiting",
        );
        const resolved = await fetch(
          `${server.ingress}/restate/awakeables/${waiting!.id}/resolve`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify("allow"),
          },
        );
        assert.ok(resolved.ok, await resolved.text());
        const result = await run.result();
        assert.equal(result.text, "sent after approval");
        const send = result.toolCalls.find((call) => call.id === "a1")!;
        assert.equal(send.approval, "approved");
        assert.equal(send.result.ok, true);
        assert.deepEqual(await ledgerOf(ledger), ["start send report", "done send report"]);
      } finally {
        await worker.kill();
      }
    },
  );
});
