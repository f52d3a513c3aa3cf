// Durable runs from the command line, on the real Restate server from npm (loopback, started
// and stopped here): `pseudoclaude serve --durable restate` is the worker, `run --durable
// restate` submits a run and streams its events, `approve` answers a waiting approval from the
// streamed line, `sessions --durable restate` lists what the server holds; two workers behind
// one load balancer share the sessions, and one session's runs never overlap.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import http2 from "node:http2";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DurableClient } from "@pseudoclaude/durable-restate/client";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN, parseJson, runCli, startCli } from "./support/cli.js";
import { type Balancer, startBalancer } from "./support/h2-balancer.js";
import { type RestateServer, startRestate } from "./support/restate-server.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const MARKS_PLUGIN = fileURLToPath(new URL("./fixtures/durable/marks-plugin.js", import.meta.url));
const TIMEOUT = { timeout: 120_000 };

let server: RestateServer;
let workspace: TempWorkspace;
const started: Serve[] = [];
let balancer: Balancer | undefined;
before(async () => {
  // It signs its requests to workers, so a worker can check them (--identity-key).
  server = await startRestate({ signing: true });
  workspace = await createTempWorkspace("pc-durable-cli-");
});
after(async () => {
  for (const serve of started) await serve.stop();
  await balancer?.close();
  await server?.stop();
  await workspace?.cleanup();
});

interface Serve {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, as a supervisor stops it; its exit code. */
  stop(): Promise<number | null>;
}

/** `pseudoclaude serve --durable restate --port 0 --json ...` in the workspace. */
function spawnServe(args: readonly string[], env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    [CLI_BIN, "serve", "--durable", "restate", "--port", "0", "--json", ...args],
    {
      cwd: workspace.root,
      env: { ...process.env, HOME: workspace.home, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group: whatever it starts ends with it
    },
  );
  let out = "";
  child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return { child, output: () => out };
}

/** A worker, once it listens; stopped by the suite at the latest. */
async function serve(args: readonly string[], env: Record<string, string> = {}): Promise<Serve> {
  const { child, output } = spawnServe(args, env);
  const url = await new Promise<string>((resolve, reject) => {
    let printed = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      // --json prints one document once it listens.
      try {
        resolve((JSON.parse(printed) as { url: string }).url);
      } catch {
        // not whole yet
      }
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${output()}`)));
    // stdout must be that document alone: anything else there (a log line) fails here.
    setTimeout(
      () => reject(new Error(`serve printed no JSON document: ${output()}`)),
      30_000,
    ).unref();
  });
  const handle: Serve = {
    url,
    child,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const force = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
      const [code] = await exited;
      clearTimeout(force);
      return code as number | null;
    },
  };
  started.push(handle);
  return handle;
}

/** The status a worker answers a request nobody signed with (its discovery endpoint). */
async function unsignedStatus(url: string): Promise<number> {
  const session = http2.connect(url);
  try {
    const request = session.request({ ":method": "GET", ":path": "/discover" });
    request.resume();
    const [headers] = (await once(request, "response")) as [http2.IncomingHttpHeaders];
    return Number(headers[":status"]);
  } finally {
    session.close();
  }
}

/** Another server's request identity public key, in Restate's format (base58 of the raw key). */
function otherKey(): string {
  const { publicKey } = generateKeyPairSync("ed25519");
  const raw = (publicKey.export({ format: "jwk" }) as { x: string }).x;
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  const bytes = Buffer.from(raw, "base64url");
  let number = BigInt(`0x${bytes.toString("hex")}`);
  // Each leading zero byte is a "1", as base58 writes it.
  let text = "1".repeat(bytes.findIndex((byte) => byte !== 0));
  while (number > 0n) {
    text = alphabet[Number(number % 58n)] + text;
    number /= 58n;
  }
  return `publickeyv1_${text}`;
}

/** A worker whose model writes one file (a side effect: asked in default mode), then says `text`. */
async function writingWorker(
  scriptName: string,
  file: string,
  content: string,
  text: string,
): Promise<Serve> {
  const script = await workspace.write(
    scriptName,
    JSON.stringify([
      { tool_calls: [{ name: "write_file", arguments: { path: file, content } }] },
      { text },
    ]),
  );
  return serve(["--script", script, "--mode", "default", "--register", "--admin", server.admin]);
}

const durable = () => ["--durable", "restate", "--ingress", server.ingress];

/** A run's JSON with what differs between processes and engines taken out. */
function comparable(document: Record<string, unknown>): unknown {
  const { session_id, invocation_id, diagnostics, ...rest } = document;
  return JSON.parse(
    JSON.stringify(rest, (key, value) => (key === "duration_ms" ? undefined : value)),
  );
}

describe("durable runs from the CLI (the real Restate server)", () => {
  it(
    "serve is the worker; run --durable streams the run's events and prints what an in-process run prints",
    TIMEOUT,
    async () => {
      await workspace.write("notes/a.txt", "alpha\n");
      const script = await workspace.write(
        "list.json",
        JSON.stringify([
          { tool_calls: [{ name: "list_dir", arguments: { path: "notes" } }] },
          { text: "One note." },
        ]),
      );
      const worker = await serve(["--script", script, "--register", "--admin", server.admin]);
      const local = await runCli(workspace, [
        "run",
        "list the notes",
        "--script",
        script,
        "--json",
      ]);
      assert.equal(local.code, 0, local.stderr);

      const streamed = await runCli(workspace, [
        "run",
        "list the notes",
        ...durable(),
        "--session",
        "notes",
      ]);
      assert.equal(streamed.code, 0, streamed.stderr + worker.output());
      assert.equal(streamed.stdout, "One note.\n");
      const lines = streamed.stderr.split("\n");
      assert.match(lines[0] ?? "", /^Durable run inv_\w+ of session notes \(Restate at /);
      assert.deepEqual(lines.slice(1, 4), [
        '> list_dir {"path":"notes"}',
        '  allow: "list_dir" is read-only.',
        "  list_dir -> ok: notes: 1 entry (0 directories, 1 other)",
      ]);

      const again = await runCli(workspace, [
        "run",
        "list the notes",
        ...durable(),
        "--session",
        "notes",
        "--json",
      ]);
      assert.equal(again.code, 0, again.stderr);
      const document = parseJson<Record<string, unknown>>(again);
      assert.equal(document.session_id, "notes");
      assert.match(String(document.invocation_id), /^inv_/);
      assert.deepEqual(comparable(document), comparable(parseJson(local)));

      // Both runs are one session: the server holds its conversation, listed like a local one.
      const listed = await runCli(workspace, [
        "sessions",
        "--durable",
        "restate",
        "--admin",
        server.admin,
        "--json",
      ]);
      assert.equal(listed.code, 0, listed.stderr);
      const { sessions, admin } = parseJson<{
        sessions: Array<Record<string, unknown>>;
        admin: string;
      }>(listed);
      assert.equal(admin, server.admin);
      const notes = sessions.find((session) => session.id === "notes");
      assert.ok(notes, JSON.stringify(sessions));
      assert.equal(notes.turns, 4);
      assert.equal(notes.first_prompt, "list the notes");
      const human = await runCli(workspace, [
        "sessions",
        "--durable",
        "restate",
        "--admin",
        server.admin,
      ]);
      assert.match(
        human.stdout,
        /^notes {2}\S+ \S+ {2}4 turns {2}0\/0 tokens {2}"list the notes"$/m,
      );
      // Continued like any other session: --continue takes the latest, --resume ID one that is there.
      const admin2 = ["--admin", server.admin];
      const continued = await runCli(workspace, [
        "run",
        "once more",
        ...durable(),
        ...admin2,
        "--continue",
        "--json",
      ]);
      assert.equal(continued.code, 0, continued.stderr);
      assert.equal(parseJson<{ session_id: string }>(continued).session_id, "notes");
      const resumed = await runCli(workspace, [
        "run",
        "and again",
        ...durable(),
        ...admin2,
        "--resume",
        "notes",
      ]);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, /^Continuing durable session notes\.$/m);
      const held = await new DurableClient({ admin: server.admin }).session("notes");
      const prompts = (held?.entries ?? []).flatMap((entry) =>
        entry.type === "turn" ? entry.messages.filter((message) => message.role === "user") : [],
      );
      assert.deepEqual(
        prompts.map((message) => message.content),
        ["list the notes", "list the notes", "once more", "and again"],
        "four prompts, one conversation",
      );
      const missing = await runCli(workspace, [
        "run",
        "hi",
        ...durable(),
        ...admin2,
        "--resume",
        "nope",
        "--json",
      ]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /No durable session "nope" in the Restate server at /);
      const both = await runCli(workspace, [
        "run",
        "hi",
        ...durable(),
        "--session",
        "notes",
        "--continue",
      ]);
      assert.equal(both.code, 2);
      assert.match(both.stderr, /--session and --continue each pick a session; give one of them/);
      assert.equal(await worker.stop(), 130, "stopped by SIGTERM, as every command");
    },
  );

  it(
    "a run waiting for approval says so while it waits; approve from the streamed line lets it finish",
    TIMEOUT,
    async () => {
      const worker = await writingWorker("write.json", "out/hello.txt", "hi", "Written.");
      const running = startCli(
        workspace,
        ["run", "write it", ...durable(), "--session", "writer"],
        { timeoutMs: 90_000 },
      );
      const line = await waitFor("the waiting line", async () =>
        running
          .stderr()
          .match(/waiting for approval of write_file .*: pseudoclaude approve (\S+) allow\|deny/),
      );
      await assert.rejects(
        readFile(path.join(workspace.root, "out/hello.txt")),
        "nothing written yet",
      );
      const approved = await runCli(workspace, [
        "approve",
        line[1]!,
        "allow",
        "--ingress",
        server.ingress,
      ]);
      assert.equal(approved.code, 0, approved.stderr);
      const done = await running.done;
      assert.equal(done.code, 0, done.stderr + worker.output());
      assert.equal(done.stdout, "Written.\n");
      assert.match(done.stderr, /ask \(approved\): "write_file" may have side effects/);
      assert.equal(await readFile(path.join(workspace.root, "out/hello.txt"), "utf8"), "hi");
      await worker.stop();
    },
  );

  it(
    "in a terminal, run --durable asks its approvals right there and answers through the ingress (tmux)",
    TIMEOUT,
    async () => {
      const worker = await writingWorker("tty.json", "out/tty.txt", "typed", "Typed.");
      const command = [
        process.execPath,
        CLI_BIN,
        "run",
        "write it",
        ...durable(),
        "--session",
        "tty",
      ]
        .map(shellQuote)
        .join(" ");
      const pane = new TmuxPane(command, { HOME: workspace.home }, workspace.root);
      try {
        const screen = await pane.waitFor(
          /Allow write_file \{"path":"out\/tty\.txt","content":"typed"\}\? \[y\/N\]/,
          "the question in the terminal",
          60_000,
        );
        // Anyone else could answer too: the line says how.
        assert.match(
          screen,
          /waiting for approval of write_file .*: pseudoclaude approve sign_\S+ allow\|deny/,
        );
        await assert.rejects(
          readFile(path.join(workspace.root, "out/tty.txt")),
          "nothing written yet",
        );
        pane.type("y");
        pane.press("Enter");
        assert.equal(await pane.waitForExit(60_000), 0, pane.screen());
        assert.match(pane.screen(), /ask \(approved\): "write_file" may have side effects/);
        assert.match(pane.screen(), /^Typed\.$/m);
        assert.equal(await readFile(path.join(workspace.root, "out/tty.txt"), "utf8"), "typed");
      } finally {
        pane.close();
        await worker.stop();
      }
    },
  );

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
          await serve(["--script", script, "--plugin", MARKS_PLUGIN], {
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
      const worker = await serve([
        "--script",
        script,
        "--identity-key",
        key,
        "--register",
        "--admin",
        server.admin,
      ]);
      const run = await runCli(workspace, ["run", "hi", ...durable(), "--session", "signed"]);
      assert.equal(run.code, 0, run.stderr + worker.output());
      assert.equal(run.stdout, "Signed.\n");
      // Not signed: anyone else who reaches the worker is refused.
      assert.equal(await unsignedStatus(worker.url), 401);
      await worker.stop();

      // A worker that expects another key refuses the server: registering it fails.
      const stranger = spawnServe([
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
      const worker = await serve([
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

  it("refuses what a durable run cannot take, before anything is sent", async () => {
    const serveBare = await runCli(workspace, ["serve"]);
    assert.equal(serveBare.code, 2);
    assert.match(serveBare.stderr, /"serve" needs --durable restate/);
    const otherEngine = await runCli(workspace, ["serve", "--durable", "temporal"]);
    assert.equal(otherEngine.code, 2);
    assert.match(otherEngine.stderr, /--durable must be one of restate \(got "temporal"\)/);
    const noModel = await runCli(workspace, ["serve", "--durable", "restate"]);
    assert.equal(noModel.code, 2);
    assert.match(noModel.stderr, /needs a model provider/);
    const workerFlag = await runCli(workspace, ["run", "hi", ...durable(), "--provider", "openai"]);
    assert.equal(workerFlag.code, 2);
    assert.match(
      workerFlag.stderr,
      /--provider shapes the agent, and a durable run's agent is its worker's/,
    );
    const sessionAlone = await runCli(workspace, [
      "run",
      "hi",
      "--session",
      "x",
      "--script",
      "none.json",
    ]);
    assert.equal(sessionAlone.code, 2);
    assert.match(sessionAlone.stderr, /--session is for durable runs \(--durable restate\)/);
    const unreachable = await runCli(workspace, [
      "run",
      "hi",
      "--durable",
      "restate",
      "--ingress",
      "http://127.0.0.1:1",
      "--json",
    ]);
    assert.equal(unreachable.code, 1);
    const failure = parseJson<{ stop_reason: string; error: { code: string; message: string } }>(
      unreachable,
    );
    assert.equal(failure.stop_reason, "error");
    assert.equal(failure.error.code, "restate_unreachable");
    assert.match(failure.error.message, /Cannot reach Restate at http:\/\/127\.0\.0\.1:1/);
  });
});

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await probe();
    if (found != null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many live processes have `text` in their command line. */
async function processesWith(text: string): Promise<number> {
  const { readdir } = await import("node:fs/promises");
  let count = 0;
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (command.replaceAll("\0", " ").includes(text) && !command.includes("node")) count += 1;
  }
  return count;
}
