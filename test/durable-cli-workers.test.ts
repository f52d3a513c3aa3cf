// `pseudoclaude serve --durable restate` workers on the real Restate server from npm (loopback,
// started and stopped here): two workers behind one load balancer share the sessions and one
// session's runs never overlap; a worker with the server's identity key refuses anyone else; a
// worker stopped mid-run leaves nothing it started behind.
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DurableClient } from "@pseudoclaude/durable-restate/client";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { runCli } from "./support/cli.js";
import {
  type DurableCli,
  otherKey,
  processesWith,
  startDurableCli,
  unsignedStatus,
  waitFor,
} from "./support/durable-cli.js";
import { type Balancer, startBalancer } from "./support/h2-balancer.js";
import type { RestateServer } from "./support/restate-server.js";

const MARKS_PLUGIN = fileURLToPath(new URL("./fixtures/durable/marks-plugin.js", import.meta.url));
const TIMEOUT = { timeout: 120_000 };

let cli: DurableCli;
let balancer: Balancer | undefined;
let server: RestateServer;
let workspace: TempWorkspace;
before(async () => {
  cli = await startDurableCli();
  ({ server, workspace } = cli);
});
after(async () => {
  await balancer?.close();
  await cli?.stop();
});

describe("durable runs from the CLI (the real Restate server)", () => {
  it(
    "two workers behind one load balancer: sessions spread over both, one session's runs never overlap",
    TIMEOUT,
    async () => {
      const marks = path.join(workspace.root, "marks.log");
      const script = await workspace.write(
        "pause.json",
        JSON.stringify([
          { tool_calls: [{ name: "pause", arguments: { ms: 300 } }] },
          { text: "Paused." },
        ]),
      );
      const workers = [];
      for (const name of ["a", "b"])
        workers.push(
          await cli.serve(["--script", script, "--plugin", MARKS_PLUGIN], {
            WORKER_NAME: name,
            MARKS_LOG: marks,
          }),
        );
      balancer = await startBalancer(workers.map((worker) => worker.url));
      await server.register(balancer.url);

      const client = new DurableClient({ ingress: server.ingress, admin: server.admin });
      const sessions = ["s1", "s2", "s3", "s4", "s5", "s6"];
      // Two runs of every session at once: Restate queues a session's second run behind its first.
      const ids = await Promise.all(
        sessions.flatMap((session) =>
          [1, 2].map(() => client.submit(session, { prompt: "pause" })),
        ),
      );
      const results = await Promise.all(ids.map((id) => client.result(id)));
      for (const result of results) assert.equal(result.text, "Paused.");

      const lines = (await readFile(marks, "utf8")).split("\n").filter(Boolean);
      assert.equal(lines.length, 24, lines.join("\n"));
      const ranOn = new Set(lines.map((line) => line.split(" ")[2]));
      assert.deepEqual(
        [...ranOn].sort(),
        ["a", "b"],
        `runs spread over both workers:\n${lines.join("\n")}`,
      );
      assert.ok(
        balancer.counts.every((count) => count > 0),
        `requests: ${balancer.counts}`,
      );
      for (const session of sessions) {
        const own = lines
          .filter((line) => line.split(" ")[1] === session)
          .map((line) => line.split(" ")[0]);
        assert.deepEqual(
          own,
          ["start", "end", "start", "end"],
          `${session} ran one run at a time:\n${lines.join("\n")}`,
        );
      }
      // Sessions did run side by side: some session started while another's run was going.
      let open = 0;
      let most = 0;
      for (const line of lines) {
        open += line.startsWith("start") ? 1 : -1;
        most = Math.max(most, open);
      }
      assert.ok(most > 1, `sessions ran in parallel (at most ${most} at once)`);
      for (const worker of workers) await worker.stop();
    },
  );

  it(
    "a worker given the server's identity key runs what the server signed and refuses anyone else",
    TIMEOUT,
    async () => {
      const script = await workspace.write("hello.json", JSON.stringify([{ text: "Signed." }]));
      const key = server.identityKey!;
      assert.match(key, /^publickeyv1_/);
      const worker = await cli.serve([
        "--script",
        script,
        "--identity-key",
        key,
        "--register",
        "--admin",
        server.admin,
      ]);
      const run = await runCli(workspace, ["run", "hi", ...cli.durable(), "--session", "signed"]);
      assert.equal(run.code, 0, run.stderr + worker.output());
      assert.equal(run.stdout, "Signed.\n");
      // Not signed: anyone else who reaches the worker is refused.
      assert.equal(await unsignedStatus(worker.url), 401);
      await worker.stop();

      // A worker that expects another key refuses the server: registering it fails.
      const stranger = cli.spawnServe([
        "--script",
        script,
        "--identity-key",
        otherKey(),
        "--register",
        "--admin",
        server.admin,
      ]);
      const guard = setTimeout(() => stranger.child.kill("SIGKILL"), 30_000);
      const [code] = await once(stranger.child, "exit");
      clearTimeout(guard);
      assert.equal(code, 1, stranger.output());
      assert.match(stranger.output(), /Cannot register http:\/\/127\.0\.0\.1:\d+ with /);

      const bad = await runCli(workspace, [
        "serve",
        "--durable",
        "restate",
        "--script",
        script,
        "--identity-key",
        "secret",
      ]);
      assert.equal(bad.code, 2);
      assert.match(
        bad.stderr,
        /--identity-key takes a Restate request identity public key, publickeyv1_/,
      );
    },
  );

  it(
    "a worker stopped mid-run closes that run's agent: nothing it started outlives the worker",
    TIMEOUT,
    async () => {
      // A marker only this test's command has, to find its process.
      const marker = `sleep ${30 + Math.random()}`;
      const script = await workspace.write(
        "sleep.json",
        JSON.stringify([
          { tool_calls: [{ name: "run_command", arguments: { command: marker } }] },
          { text: "Slept." },
        ]),
      );
      const worker = await cli.serve([
        "--script",
        script,
        "--mode",
        "bypass",
        "--register",
        "--admin",
        server.admin,
      ]);
      const client = new DurableClient({ ingress: server.ingress, admin: server.admin });
      await client.submit("sleeper", { prompt: "sleep" });
      await waitFor("the command to run", async () =>
        (await processesWith(marker)) > 0 ? true : undefined,
      );
      assert.equal(await worker.stop(), 130);
      assert.equal(await processesWith(marker), 0, "the worker's command ended with it");
    },
  );
});
