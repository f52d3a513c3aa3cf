// Workers killed mid-call on the real Restate server from npm (loopback, started and stopped
// here): the replacement completes the run without running finished calls again (the MCP
// server's own ledger says so), asks before running again a side-effect call its worker died
// in, and polls the MCP task its worker had started instead of starting another.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { textOf } from "@pseudoclaude/core";
import { DurableClient } from "@pseudoclaude/durable-restate/client";
import type { ScriptedStep } from "@pseudoclaude/testing";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { startHttpServer } from "@pseudoclaude/testing/system";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { runCli } from "./support/cli.js";
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
    "a worker killed during a read-only call is replaced; finished calls do not run again, the interrupted one once",
    TIMEOUT,
    async () => {
      const script: ScriptedStep[] = [
        { tool_calls: [{ id: "q1", name: "mcp__ledger__lookup", arguments: { id: "first" } }] },
        {
          tool_calls: [
            { id: "q2", name: "mcp__ledger__lookup", arguments: { id: "slow", delay_ms: 60_000 } },
          ],
        },
        { text: "looked both up" },
      ];
      const ledger = path.join(dir, "read.log");
      const port = await freePort();
      let worker = await restate.startWorker(port, script, ledger);
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await restate.submit("killed-read", "go");
        await waitFor("the slow lookup to start", async () =>
          (await ledgerOf(ledger)).includes("start lookup slow") ? true : undefined,
        );
        await worker.kill();
        // The new worker's server answers the slow lookup at once; its model is never asked
        // for the turns already recorded, so its script starts at the third turn.
        worker = await restate.startWorker(port, script.slice(2), ledger, {
          LEDGER_MAX_DELAY_MS: "0",
        });
        const result = await run.result();
        assert.equal(result.text, "looked both up");
        assert.deepEqual(await ledgerOf(ledger), [
          "start lookup first",
          "done lookup first",
          "start lookup slow",
          "start lookup slow",
          "done lookup slow",
        ]);
        // The run's event stream holds every event once, though the replay raised the first
        // worker's events again: the recorded batches are what is written.
        const client = new DurableClient({ ingress: server.ingress });
        const page = await client.events("killed-read", 0);
        assert.equal(page.run, run.invocationId);
        const seen = page.events.map((event) =>
          event.type === "tool-call-start" || event.type === "tool-call-end"
            ? `${event.type} ${event.data.call.id}`
            : event.type === "turn-start"
              ? `turn-start ${event.data.turn}`
              : event.type,
        );
        assert.deepEqual(seen, [
          "run-start",
          "turn-start 1",
          "turn-end",
          "tool-call-start q1",
          "tool-decision",
          "tool-call-end q1",
          "turn-start 2",
          "turn-end",
          "tool-call-start q2",
          "tool-decision",
          "tool-call-end q2",
          "turn-start 3",
          "text-delta",
          "turn-end",
          "run-end",
        ]);
        const later = await client.events("killed-read", page.next);
        assert.deepEqual(later.events, [], "nothing after the last batch");
      } finally {
        await worker.kill();
      }
    },
  );
  it(
    "a worker killed during a side-effect call: the replay asks, and a deny ends that call clearly while the run goes on",
    TIMEOUT,
    async () => {
      const script: ScriptedStep[] = [
        {
          tool_calls: [
            { id: "s1", name: "mcp__ledger__send", arguments: { id: "mail", delay_ms: 60_000 } },
          ],
        },
        { text: "went on" },
      ];
      const ledger = path.join(dir, "send.log");
      const port = await freePort();
      let worker = await restate.startWorker(port, script, ledger);
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await restate.submit("killed-send", "go");
        await waitFor("the send to start", async () =>
          (await ledgerOf(ledger)).includes("start send mail") ? true : undefined,
        );
        await worker.kill();
        worker = await restate.startWorker(port, script.slice(1), ledger, {
          LEDGER_MAX_DELAY_MS: "0",
        });
        const [waiting] = await waitFor("the approval the replay asks for", async () => {
          const list = await restate.pending("killed-send");
          return list.length > 0 ? list : undefined;
        });
        assert.equal(waiting!.tool, "mcp__ledger__send");
        assert.equal(waiting!.interrupted, true);
        assert.match(waiting!.reason, /may have run once already/);
        // From anywhere: the CLI answers through Restate's ingress.
        const cli = await createTempWorkspace("pc-durable-cli-");
        try {
          const wrong = await runCli(cli, ["approve", waiting!.id, "maybe"]);
          assert.equal(wrong.code, 2, wrong.stderr);
          const denied = await runCli(cli, [
            "approve",
            waiting!.id,
            "deny",
            "--reason",
            "it went out",
            "--ingress",
            server.ingress,
            "--json",
          ]);
          assert.equal(denied.code, 0, denied.stderr);
          assert.deepEqual(JSON.parse(denied.stdout), {
            id: waiting!.id,
            verdict: "deny",
            reason: "it went out",
          });
          const again = await runCli(cli, ["approve", "sign_not-a-real-id", "deny"], {
            env: { PSEUDOCLAUDE_RESTATE_INGRESS: server.ingress },
          });
          assert.equal(again.code, 1);
          assert.match(again.stderr, /Restate refused the answer to sign_not-a-real-id \(\d+\)/);
        } finally {
          await cli.cleanup();
        }
        const result = await run.result();
        assert.equal(result.text, "went on");
        const send = result.toolCalls.find((call) => call.id === "s1")!;
        assert.equal(send.result.ok ? "" : send.result.error.code, "interrupted");
        assert.match(
          send.result.ok ? "" : send.result.error.message,
          /Running it again was denied: it went out\./,
        );
        assert.deepEqual(await ledgerOf(ledger), ["start send mail"], "never run again");
        assert.deepEqual(await restate.pending("killed-send"), []);
      } finally {
        await worker.kill();
      }
    },
  );
  for (const era of ["2025-11-25", "2026-07-28"] as const)
    it(
      `a worker killed while its MCP task runs: the next worker polls the same task (one task on the server) and the run completes (${era})`,
      TIMEOUT,
      async () => {
        const script: ScriptedStep[] = [
          {
            tool_calls: [
              { id: "b1", name: "mcp__jobs__build", arguments: { steps: 40, step_ms: 100 } },
            ],
          },
          { text: "built once" },
        ];
        const ledger = path.join(dir, `task-${era}.log`);
        const tasksLog = path.join(dir, `tasks-server-${era}.log`);
        const tasks = await startHttpServer({
          script: fixture(era === "2025-11-25" ? "tasks" : "modern-tasks"),
          env: { FIXTURE_LOG: tasksLog },
        });
        const port = await freePort();
        const extra = { TASKS_URL: tasks.url("/mcp"), TASKS_PROTOCOL: era };
        let worker = await restate.startWorker(port, script, ledger, extra);
        try {
          await server.register(`http://127.0.0.1:${port}`);
          const run = await restate.submit(`killed-task-${era.slice(0, 4)}`, "go");
          const taskId = await waitFor("the task to be well under way", async () => {
            const lines = await ledgerOf(tasksLog);
            const created = lines.find((line) => line.endsWith("created by build"));
            return created && lines.some((line) => line.endsWith("step 5 of 40"))
              ? created.split(" ")[1]
              : undefined;
          });
          await worker.kill();
          worker = await restate.startWorker(port, script.slice(1), ledger, extra);
          const result = await run.result();
          assert.equal(result.text, "built once");
          const build = result.toolCalls.find((call) => call.id === "b1")!;
          assert.equal(build.result.ok, true, JSON.stringify(build.result));
          assert.equal(textOf(build.result.content), "built in 40 steps");
          assert.equal(build.result.metadata.task_id, taskId);
          const lines = await ledgerOf(tasksLog);
          assert.deepEqual(
            lines.filter((line) => line.includes("created by")),
            [`task ${taskId} created by build`],
            "the server ran one task: the second worker did not call the tool again",
          );
          assert.ok(lines.includes(`task ${taskId} completed`));
          // The task's statuses are in the run's event stream.
          const page = await new DurableClient({ ingress: server.ingress }).events(
            `killed-task-${era.slice(0, 4)}`,
            0,
          );
          const statuses = page.events.flatMap((event) =>
            event.type === "tool-task" ? [event.data.task.status] : [],
          );
          assert.ok(statuses.includes("working"), JSON.stringify(statuses));
          assert.equal(statuses.at(-1), "completed");
        } finally {
          await worker.kill();
          await tasks.stop();
        }
      },
    );
});
