// Programs run on a worker thread: the agent's event loop keeps turning whatever a program does,
// a program stuck inside one built-in is ended by force at its hard deadline (the worker is
// replaced), a worker that dies ends its programs with a clear failure, the pool is reused and
// shuts down. Nothing here measures time: a main-thread timer counts its ticks instead.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { UsageError } from "@pseudoclaude/core";
import {
  closeSandbox,
  configureSandbox,
  sandboxPoolStats,
  warmSandbox,
} from "../src/sandbox/index.js";
import { setSandboxWorkerScript } from "../src/sandbox/worker-pool.js";
import {
  assertSandboxHealthy,
  expectValue,
  FakeHost,
  failureOf,
  run,
} from "./support/fake-host.js";

/** Loops whose every step is one long built-in: QuickJS's interrupt check comes too rarely. */
const BUILTIN_LOOPS = [
  'const s = "x".repeat(4 << 20); for (;;) s.indexOf("z");',
  "const a = Array.from({ length: 1 << 20 }, (_, i) => i); for (;;) a.slice();",
  "for (;;) 'y'.repeat(1 << 20);",
];
const STUCK = 'const s = "x".repeat(4 << 20); for (;;) s.indexOf("z");';

/** Run `body` while a main-thread timer ticks; how many times it ticked. */
async function ticksDuring<T>(body: () => Promise<T>): Promise<[T, number]> {
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
  }, 5);
  try {
    return [await body(), ticks];
  } finally {
    clearInterval(timer);
  }
}

after(async () => {
  setSandboxWorkerScript(undefined);
  await closeSandbox();
});

describe("the sandbox's worker", () => {
  it("stops loops of long built-ins with CPU_LIMIT while the agent's event loop keeps turning", {
    timeout: 60_000,
  }, async () => {
    for (const source of BUILTIN_LOOPS) {
      const [outcome, ticks] = await ticksDuring(() => run(source, { limits: { cpuMs: 300 } }));
      assert.match(failureOf(outcome, "CPU_LIMIT"), /more than 300 ms of CPU time/, source);
      assert.ok(ticks > 0, `the event loop was blocked while running ${source}`);
    }
    await assertSandboxHealthy();
  });

  it("ends a program stuck in a built-in past its wall time with TIMEOUT, aborting its calls", {
    timeout: 60_000,
  }, async () => {
    const host = new FakeHost();
    // The slow call starts with the first turn; the second turn never ends by itself.
    const [outcome, ticks] = await ticksDuring(() =>
      run(`tools.slow({}); await tools.echo({}); ${STUCK}`, {
        host,
        limits: { cpuMs: 600_000, wallMs: 1_000 },
      }),
    );
    assert.match(failureOf(outcome, "TIMEOUT"), /longer than 1000 ms/);
    assert.ok(ticks > 0);
    assert.deepEqual(host.aborted, [0]);
    await assertSandboxHealthy();
  });

  it("ends a cancelled program stuck in a built-in with ABORTED", { timeout: 60_000 }, async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await run(STUCK, {
      limits: { cpuMs: 600_000 },
      signal: controller.signal,
    });
    assert.equal(failureOf(outcome, "ABORTED"), "The program was cancelled.");
    await assertSandboxHealthy();
  });

  it("reuses its worker: later programs start no other", async () => {
    await assertSandboxHealthy();
    const before = sandboxPoolStats();
    for (let i = 0; i < 5; i++) await assertSandboxHealthy();
    const now = sandboxPoolStats();
    assert.equal(now.workersStarted, before.workersStarted);
    assert.equal(now.workersAlive, 1);
    assert.equal(now.running, 0);
  });

  it("a program ended by force takes the others on its worker with it; the next program gets a new worker", {
    timeout: 60_000,
  }, async () => {
    const host = new FakeHost();
    const waiting = run("return await tools.slow({})", { host });
    const stuck = await run(STUCK, { limits: { cpuMs: 200 } });
    assert.match(failureOf(stuck, "CPU_LIMIT"), /stopped by force/);
    assert.match(
      failureOf(await waiting, "INTERNAL"),
      /replaced after another program on it had to be stopped by force; run this program again/,
    );
    assert.deepEqual(host.aborted, [0], "the waiting program's call was aborted");
    const before = sandboxPoolStats().workersStarted;
    await assertSandboxHealthy();
    assert.equal(sandboxPoolStats().workersStarted, before + 1);
  });

  it("on two workers, a program ended by force leaves the other worker's programs alone", {
    timeout: 60_000,
  }, async () => {
    await closeSandbox();
    configureSandbox({ workers: 2 });
    try {
      const host = new FakeHost({ delayMs: () => 800 });
      const patient = expectValue("return (await tools.echo({ a: 1 })).a", { host });
      failureOf(await run(STUCK, { limits: { cpuMs: 200 } }), "CPU_LIMIT");
      assert.equal(await patient, 1);
      assert.equal(sandboxPoolStats().workersStarted >= 2, true);
    } finally {
      configureSandbox({ workers: 1 });
    }
    for (const workers of [0, 3, 1.5])
      assert.throws(() => configureSandbox({ workers }), UsageError);
  });

  it("a worker that dies ends its programs (INTERNAL, or MEMORY_LIMIT when out of memory), and the next program runs", {
    timeout: 60_000,
  }, async () => {
    await closeSandbox();
    setSandboxWorkerScript(new URL("./support/crashing-worker.js", import.meta.url));
    try {
      // Loaded first: a worker that dies while loading says so instead (see the last test).
      await warmSandbox();
      const exited = await run("await tools.slow({}); // EXIT_WORKER");
      assert.match(failureOf(exited, "INTERNAL"), /stopped unexpectedly \(exit code 3\)/);
      await assertSandboxHealthy();
      const filled = await run("await tools.slow({}); // FILL_WORKER_HEAP");
      assert.match(failureOf(filled, "MEMORY_LIMIT"), /ran out of memory/);
      await assertSandboxHealthy();
    } finally {
      setSandboxWorkerScript(undefined);
      await closeSandbox();
    }
  });

  it("closeSandbox ends every worker and the programs on them; the next program starts a new one", async () => {
    const running = run("return await tools.slow({})");
    await assertSandboxHealthy();
    await closeSandbox();
    assert.equal(failureOf(await running, "ABORTED"), "The sandbox was shut down.");
    assert.equal(sandboxPoolStats().workersAlive, 0);
    await assertSandboxHealthy();
    assert.equal(sandboxPoolStats().workersAlive, 1);
    await closeSandbox();
    assert.equal(sandboxPoolStats().workersAlive, 0);
  });

  it("an idle worker does not keep the process alive", { timeout: 60_000 }, async () => {
    const entry = new URL("../src/sandbox/index.js", import.meta.url).href;
    const script = `
      const { runProgram } = await import(${JSON.stringify(entry)});
      const outcome = await runProgram({
        source: "return 40 + 2", tools: [], namespaces: {},
        host: { call: async () => ({ ok: false, code: "x", message: "x", atMs: 0 }) },
        start: { nowMs: 0, seed: [1, 2, 3, 4] },
      });
      console.log(JSON.stringify(outcome.ok && outcome.value));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL(".", import.meta.url)),
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve(null);
      }, 30_000);
      child.once("exit", (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    assert.equal(code, 0, "the process ended by itself");
    assert.equal(out.trim(), "42");
  });
});
