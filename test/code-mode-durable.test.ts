// Code mode in durable runs, through the CLI (`serve --durable restate --code-mode on`) on the
// real Restate server from npm (loopback, started and stopped here). A program is not one
// journal step: its inner calls are. So a worker killed between two side-effect calls of a
// program is replaced, the replacement runs the program again from its recorded start time and
// seed, every finished call hands back its record, and the ledger MCP server (which logs each
// call it runs) shows each side effect once. Without a kill, a durable run of a program answers
// what an in-process run of the same script answers.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { DurableClient } from "@pseudoclaude/durable-restate/client";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { markerEnv, newMarker } from "@pseudoclaude/testing/system";
import { parseJson, runCli } from "./support/cli.js";
import { assertNothingLeft, ledgerConfig, programScript } from "./support/code-mode-durable.js";
import { comparable, type DurableCli, type Serve, startDurableCli } from "./support/durable-cli.js";
import { ledgerOf, waitFor } from "./support/durable-restate.js";
import type { RestateServer } from "./support/restate-server.js";

const TIMEOUT = { timeout: 120_000 };

/**
 * Two side effects with a read-only call between them that holds the program (a minute, unless
 * the server's cap says less) until the test kills the worker. Each call's id carries the
 * program's time and chance as it saw them before the call: the ledger keeps what the first
 * attempt saw, and the program returns what the attempt that finished saw.
 */
const HELD = `const t0 = Date.now();
const r0 = Math.random();
const one = await tools.ledger.send({ id: "one@" + t0 + "/" + r0 });
const t1 = Date.now();
const r1 = Math.random();
await tools.ledger.lookup({ id: "hold@" + t1 + "/" + r1, delay_ms: 60000 });
const two = await tools.ledger.send({ id: "two" });
return { t0, r0, one, t1, r1, two, now: Date.now(), r: Math.random() };`;

/** What the program of the held run returns. */
interface Held {
  t0: number;
  r0: number;
  one: string;
  t1: number;
  r1: number;
  two: string;
  now: number;
  r: number;
}

let cli: DurableCli;
let server: RestateServer;
let workspace: TempWorkspace;
before(async () => {
  cli = await startDurableCli();
  ({ server, workspace } = cli);
});
after(async () => {
  await cli?.stop();
});

/** A code-mode worker in bypass mode (the sends run unasked), marked so its processes are found. */
function codeModeWorker(script: string, marker: string, extra: string[] = []): Promise<Serve> {
  return cli.serve(
    ["--script", script, "--code-mode", "on", "--mode", "bypass", ...extra],
    markerEnv(marker),
  );
}

describe("code mode in durable runs (the real Restate server)", () => {
  it(
    "a worker killed between a program's two side effects: the replacement replays the program from its recorded start, each side effect runs once",
    TIMEOUT,
    async () => {
      const marker = newMarker();
      const log = path.join(workspace.root, "held.log");
      await ledgerConfig(workspace, log, marker, { readOnlyLookup: true, maxDelayMs: "" });
      const full = await programScript(workspace, "held.json", HELD, "Recorded twice.");
      // The model's first turn is replayed from the journal: the second worker is asked only
      // for the turn after the program.
      const rest = await workspace.write(
        "held-rest.json",
        JSON.stringify([{ text: "Recorded twice." }]),
      );
      const first = await codeModeWorker(full, marker, ["--register", "--admin", server.admin]);
      const port = new URL(first.url).port;
      let second: Serve | undefined;
      try {
        const client = new DurableClient({ ingress: server.ingress, admin: server.admin });
        const id = await client.submit("held", { prompt: "record twice" });
        await waitFor("the program to be held between its side effects", async () =>
          (await ledgerOf(log)).some((line) => line.startsWith("start lookup hold@"))
            ? true
            : undefined,
        );
        const seenBeforeKill = await ledgerOf(log);
        process.kill(-first.child.pid!, "SIGKILL");
        await first.stop();
        await assertNothingLeft(marker, "after the first worker was killed");

        // The replacement's server answers the held lookup at once. Restate pinned the run to
        // the deployment at this URL: the replacement listens on the same port.
        await ledgerConfig(workspace, log, marker, { readOnlyLookup: true, maxDelayMs: "0" });
        const secondStartedAt = Date.now();
        second = await codeModeWorker(rest, marker, ["--port", port]);
        const result = await client.result(id);
        assert.equal(result.text, "Recorded twice.", second.output());

        const program = result.toolCalls.find((call) => call.id === "p1");
        assert.ok(program?.result.ok, JSON.stringify(program?.result));
        const held = program.result.structured as Held;
        const ledger = await ledgerOf(log);
        for (const send of ["start send one@", "start send two"])
          assert.equal(
            ledger.filter((line) => line.startsWith(send)).length,
            1,
            `each side effect ran once:\n${ledger.join("\n")}`,
          );
        assert.equal(held.one, `send one@${held.t0}/${held.r0} ok`);
        assert.equal(held.two, "send two ok");
        // The ledger holds what the first attempt saw, the result what the replay saw: the
        // same time and the same random numbers, so the replay took the same path.
        const oneId = `one@${held.t0}/${held.r0}`;
        const holdId = `hold@${held.t1}/${held.r1}`;
        assert.deepEqual(seenBeforeKill, [
          `start send ${oneId}`,
          `done send ${oneId}`,
          `start lookup ${holdId}`,
        ]);
        assert.deepEqual(
          ledger,
          [
            `start send ${oneId}`,
            `done send ${oneId}`,
            // Read-only and unfinished when the worker died: run again, with the same arguments.
            `start lookup ${holdId}`,
            `start lookup ${holdId}`,
            `done lookup ${holdId}`,
            `start send two`,
            `done send two`,
          ],
          "the replay saw the time and chance the first attempt saw",
        );
        // The replay's clock started at the recorded start, not at its own: the program's
        // last reading is still before the replacement worker existed.
        assert.ok(held.t0 <= held.t1 && held.t1 <= held.now, JSON.stringify(held));
        assert.ok(held.now < secondStartedAt, `${held.now} < ${secondStartedAt}`);
        assert.ok(typeof held.r === "number" && held.r >= 0 && held.r < 1);

        // Each inner call is in the run's event stream once, under the program's call.
        const page = await client.events("held", 0);
        const ends = page.events.flatMap((event) =>
          event.type === "tool-call-end"
            ? [`${event.data.call.id} ${event.data.call.parentId ?? "-"}`]
            : [],
        );
        assert.deepEqual(ends, ["p1.0 p1", "p1.1 p1", "p1.2 p1", "p1 -"]);
        // The program's clock moves only by each call's recorded duration, so its readings
        // follow from the start and the durations the stream holds.
        const took = new Map(
          page.events.flatMap((event) =>
            event.type === "tool-call-end"
              ? [[event.data.call.id, Math.round(Number(event.data.result.metadata.duration_ms))]]
              : [],
          ),
        );
        assert.equal(held.t1, held.t0 + took.get("p1.0")!);
        assert.equal(held.now, held.t1 + took.get("p1.1")! + took.get("p1.2")!);
        await second.stop();
        await assertNothingLeft(marker, "after the second worker stopped");
      } finally {
        await first.stop();
        await second?.stop();
      }
    },
  );

  it(
    "without a kill, a durable run of a program answers what an in-process run of the same script answers",
    TIMEOUT,
    async () => {
      const marker = newMarker();
      const log = path.join(workspace.root, "plain.log");
      await ledgerConfig(workspace, log, marker, { readOnlyLookup: true, maxDelayMs: "" });
      const code = `const a = await tools.ledger.lookup({ id: "a" });
const b = await callTool("mcp__ledger__send", { id: "b" });
return { a, b };`;
      const script = await programScript(workspace, "plain.json", code, "Both done.");
      const local = await runCli(workspace, [
        ...["run", "do both", "--script", script, "--code-mode", "on", "--mode", "bypass"],
        "--json",
      ]);
      assert.equal(local.code, 0, local.stderr);
      const worker = await codeModeWorker(script, marker, ["--register", "--admin", server.admin]);
      try {
        const durable = await runCli(workspace, [
          ...["run", "do both", ...cli.durable(), "--session", "plain", "--json"],
        ]);
        assert.equal(durable.code, 0, durable.stderr + worker.output());
        const document = parseJson<Record<string, unknown>>(durable);
        assert.equal(document.session_id, "plain");
        assert.deepEqual(comparable(document), comparable(parseJson(local)));
        const calls = document.tool_calls as Array<{ id: string; result: { structured: unknown } }>;
        assert.deepEqual(calls.find((call) => call.id === "p1")?.result.structured, {
          a: "lookup a ok",
          b: "send b ok",
        });
        // Once in process, once durable: each call ran once per run.
        assert.deepEqual(await ledgerOf(log), [
          ...["start lookup a", "done lookup a", "start send b", "done send b"],
          ...["start lookup a", "done lookup a", "start send b", "done send b"],
        ]);
      } finally {
        await worker.stop();
      }
      await assertNothingLeft(marker, "after the worker stopped");
    },
  );
});
