// Durable runs on the real Restate server from npm, on loopback, started and stopped here: a
// run through Restate returns what the in-process agent returns; a worker killed mid-call is
// replaced and the run completes without running finished calls again (the MCP server's own
// ledger says so); a side-effect call its worker died in is asked about, not run again.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createAgent, type RunResult, textOf } from "@pseudoclaude/core";
import type { PendingApproval } from "@pseudoclaude/durable-restate";
import {
  DurableClient,
  type DurableEvent,
  followRunEvents,
} from "@pseudoclaude/durable-restate/client";
import type { ScriptedStep } from "@pseudoclaude/testing";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { ledgerAgentOptions } from "./fixtures/durable/ledger-agent.js";
import { runCli } from "./support/cli.js";
import { startHttpServer } from "./support/http-server-process.js";
import { fixture } from "./support/mcp-fixtures.js";
import { freePort, type RestateServer, startRestate } from "./support/restate-server.js";

const WORKER = fileURLToPath(new URL("./fixtures/durable/worker.js", import.meta.url));
const TIMEOUT = { timeout: 120_000 };

let server: RestateServer;
let dir: string;
before(async () => {
  server = await startRestate();
  dir = await mkdtemp(path.join(os.tmpdir(), "pc-durable-"));
});
after(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Worker {
  child: ChildProcess;
  /** Kill the worker and everything it started (its MCP server), without warning. */
  kill(): Promise<void>;
}

/** A worker on `port` (the same port after a restart: Restate pins a run to its deployment). */
async function startWorker(
  port: number,
  script: ScriptedStep[],
  ledger: string,
  extra: Record<string, string> = {},
): Promise<Worker> {
  const child = spawn(process.execPath, [WORKER], {
    detached: true, // its own process group, so a kill takes its MCP server too
    env: {
      ...process.env,
      DURABLE_PORT: String(port),
      DURABLE_WORKSPACE: dir,
      DURABLE_SCRIPT: JSON.stringify(script),
      FIXTURE_LOG: ledger,
      ...extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("listening")) resolve();
    });
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`worker exited ${code}: ${out}`)));
  });
  return {
    child,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      process.kill(-child.pid!, "SIGKILL");
      await exited;
    },
  };
}

async function ledgerOf(file: string): Promise<string[]> {
  return (await readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean);
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Submit a run without waiting; `result` attaches to it until it completes. */
async function submit(session: string, prompt: string) {
  const response = await fetch(`${server.ingress}/pseudoclaude/${session}/run/send`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ prompt }),
  });
  assert.equal(response.status, 202, await response.clone().text());
  const { invocationId } = (await response.json()) as { invocationId: string };
  return {
    invocationId,
    result: async (): Promise<RunResult> => {
      const attached = await fetch(`${server.ingress}/restate/invocation/${invocationId}/attach`);
      const text = await attached.text();
      assert.equal(attached.status, 200, text);
      return JSON.parse(text) as RunResult;
    },
  };
}

async function pending(session: string): Promise<PendingApproval[]> {
  const response = await fetch(`${server.ingress}/pseudoclaude/${session}/pending`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "null",
  });
  return (await response.json()) as PendingApproval[];
}

/** What the server says of an invocation, read from the server alone (no worker needed). */
async function invocationStatus(id: string): Promise<string | undefined> {
  const response = await fetch(`${server.admin}/query`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query: `select status from sys_invocation where id = '${id}'` }),
  });
  const { rows } = (await response.json()) as { rows: Array<{ status: string }> };
  return rows[0]?.status;
}

/** Invocations of the session object's `events` handler and of its event bell, so far. */
async function followInvocations(): Promise<number> {
  const response = await fetch(`${server.admin}/query`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      query:
        "select count(*) as n from sys_invocation where (target_service_name = 'pseudoclaude' " +
        "and target_handler_name = 'events') or target_service_name = 'pseudoclaude_events'",
    }),
  });
  const { rows } = (await response.json()) as { rows: Array<{ n: number }> };
  return Number(rows[0]?.n ?? 0);
}

/** A run, with what differs between processes (durations) taken out. */
function comparable(result: RunResult): unknown {
  return JSON.parse(
    JSON.stringify(result, (key, value) => (key === "duration_ms" ? undefined : value)),
  );
}

describe("durable runs on Restate (the real server)", () => {
  it(
    "a run with an MCP tool and a built-in tool returns what the in-process agent returns",
    TIMEOUT,
    async () => {
      const script: ScriptedStep[] = [
        {
          tool_calls: [
            { id: "c1", name: "mcp__ledger__lookup", arguments: { id: "a" } },
            { id: "c2", name: "write_file", arguments: { path: "notes.txt", content: "hi\n" } },
          ],
        },
        { text: "done" },
      ];
      const ledger = path.join(dir, "same.log");
      const local = await createAgent(ledgerAgentOptions({ workspace: dir, script, ledger }));
      const expected = await local.run("go").finally(() => local.close());
      const port = await freePort();
      const worker = await startWorker(port, script, ledger);
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await submit("same-result", "go");
        const durable = await run.result();
        // "Replaced" against "Created": the in-process run wrote the file first.
        const normalize = (result: RunResult) =>
          JSON.stringify(comparable(result))
            .replace(/Replaced notes\.txt/, "Created notes.txt")
            .replace(/"created":false/, '"created":true');
        assert.equal(normalize(durable), normalize(expected));
      } finally {
        await worker.kill();
      }
    },
  );

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
      let worker = await startWorker(port, script, ledger);
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await submit("killed-read", "go");
        await waitFor("the slow lookup to start", async () =>
          (await ledgerOf(ledger)).includes("start lookup slow") ? true : undefined,
        );
        await worker.kill();
        // The new worker's server answers the slow lookup at once; its model is never asked
        // for the turns already recorded, so its script starts at the third turn.
        worker = await startWorker(port, script.slice(2), ledger, { LEDGER_MAX_DELAY_MS: "0" });
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
      let worker = await startWorker(port, script, ledger);
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await submit("killed-send", "go");
        await waitFor("the send to start", async () =>
          (await ledgerOf(ledger)).includes("start send mail") ? true : undefined,
        );
        await worker.kill();
        worker = await startWorker(port, script.slice(1), ledger, { LEDGER_MAX_DELAY_MS: "0" });
        const [waiting] = await waitFor("the approval the replay asks for", async () => {
          const list = await pending("killed-send");
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
        assert.deepEqual(await pending("killed-send"), []);
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
        let worker = await startWorker(port, script, ledger, extra);
        try {
          await server.register(`http://127.0.0.1:${port}`);
          const run = await submit(`killed-task-${era.slice(0, 4)}`, "go");
          const taskId = await waitFor("the task to be well under way", async () => {
            const lines = await ledgerOf(tasksLog);
            const created = lines.find((line) => line.endsWith("created by build"));
            return created && lines.some((line) => line.endsWith("step 5 of 40"))
              ? created.split(" ")[1]
              : undefined;
          });
          await worker.kill();
          worker = await startWorker(port, script.slice(1), ledger, extra);
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
      const worker = await startWorker(port, script, ledger, { DURABLE_MODE: "default" });
      const client = new DurableClient({ ingress: server.ingress, admin: server.admin });
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await submit("followed", "go");
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
          const before = await followInvocations();
          const WAIT_MS = 8_000;
          await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
          const during = (await followInvocations()) - before;
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
      let worker = await startWorker(port, script, ledger, { DURABLE_MODE: "default" });
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await submit("waits", "go");
        const [waiting] = await waitFor("the approval", async () => {
          const list = await pending("waits");
          return list.length > 0 ? list : undefined;
        });
        assert.equal(waiting!.interrupted, false);
        assert.equal(waiting!.tool, "mcp__ledger__send");
        // No worker at all while the run waits: the server alone holds it (backing off, as its
        // worker died; suspended, had the worker let it go idle) until a worker comes back.
        await worker.kill();
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        assert.match(String(await invocationStatus(run.invocationId)), /^(backing-off|suspended)$/);
        worker = await startWorker(port, script.slice(1), ledger, { DURABLE_MODE: "default" });
        assert.deepEqual(
          (await pending("waits")).map((item) => item.id),
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
