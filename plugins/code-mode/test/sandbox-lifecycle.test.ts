// One shared module in the sandbox's worker, many programs: each releases all it held, a module
// poisoned by one program is replaced for the next, cancellation and calls left behind are
// handled.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sandboxPoolStats, warmSandbox } from "../src/sandbox/index.js";
import {
  assertSandboxHealthy,
  expectValue,
  FakeHost,
  failureOf,
  run,
} from "./support/fake-host.js";

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

/** Programs that end every way a program can end cheaply. */
const MIX = [
  "return (await Promise.all([tools.echo({ a: 1 }), tools.github.search_issues({ q: 'x' })])).length",
  "console.log('x'.repeat(100)); const big = Array.from({ length: 5000 }, (_, i) => ({ i })); return big.length",
  "await tools.echo({}); throw new Error('boom')",
  "const x: number = ;",
  "await new Promise(() => {})",
  "return 'x'.repeat(70000)",
  "tools.slow({}); return 1",
  "await tools.fail({})",
];

describe("the sandbox's lifecycle", () => {
  it("loads its module once, ahead of time if asked", async () => {
    await warmSandbox();
    const { created } = sandboxPoolStats();
    assert.ok(created >= 1);
    await assertSandboxHealthy();
    assert.equal(sandboxPoolStats().created, created);
  });

  it("releases everything: 200 programs leave the module's memory and the heap where they were", async () => {
    for (let i = 0; i < 24; i++) await run(MIX[i % MIX.length] as string);
    collect();
    const before = { ...sandboxPoolStats(), heap: process.memoryUsage().heapUsed };
    for (let i = 0; i < 200; i++) await run(MIX[i % MIX.length] as string);
    collect();
    const after = { ...sandboxPoolStats(), heap: process.memoryUsage().heapUsed };
    assert.equal(after.discarded, before.discarded, "no runtime failed to dispose");
    // Sanity bounds, far above noise: a leaked runtime holds hundreds of kilobytes of the
    // module's memory, which never shrinks; 200 of them would show.
    const mib = (bytes: number) => bytes / 1024 / 1024;
    assert.ok(mib(after.memoryBytes - before.memoryBytes) < 16, `${mib(after.memoryBytes)} MiB`);
    assert.ok(mib(after.heap - before.heap) < 32, `heap grew ${mib(after.heap - before.heap)} MiB`);
  });

  it("runs many programs at once on one module, each with its own limits", async () => {
    const host = new FakeHost({ delayMs: (call) => 1 + (call.index % 4) * 3 });
    const programs = Array.from({ length: 20 }, (_, k) =>
      expectValue(
        `return (await Promise.all([1, 2, 3].map((i) => tools.echo({ i })))).length + ${k}`,
        {
          host,
        },
      ),
    );
    const starved = run("const a = []; for (;;) a.push({})", {
      limits: { memoryBytes: 2 * 1024 * 1024 },
    });
    assert.deepEqual(
      await Promise.all(programs),
      Array.from({ length: 20 }, (_, k) => 3 + k),
    );
    failureOf(await starved, "MEMORY_LIMIT");
  });

  it("a module poisoned by one program fails the others on it, and the next program gets a fresh one", async () => {
    let slowStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      slowStarted = resolve;
    });
    const waitingHost = new FakeHost({
      scripts: {
        slow: () => {
          slowStarted();
          return "never";
        },
      },
    });
    const waiting = run("await tools.echo({}); return await tools.slow({})", { host: waitingHost });
    await started;
    // Deep enough, QuickJS's frames overflow the worker thread's own stack before its check.
    const crash = await run("const f = (n) => f(n + 1) + 1;\nreturn f(0);", {
      limits: { stackBytes: 4 * 1024 * 1024 },
    });
    failureOf(crash, "STACK_OVERFLOW");
    const other = await waiting;
    assert.match(failureOf(other, "INTERNAL"), /reset after another program crashed it/);
    assert.deepEqual(waitingHost.aborted, [1]);
    await assertSandboxHealthy();
  });

  it("cancels on the caller's signal, aborting the calls in flight", async () => {
    const controller = new AbortController();
    // The caller gives up once the slow call is running.
    const host = new FakeHost({
      scripts: {
        slow: () => {
          setTimeout(() => controller.abort());
          return "never";
        },
      },
    });
    const outcome = await run("await tools.echo({}); return await tools.slow({})", {
      host,
      signal: controller.signal,
    });
    assert.equal(failureOf(outcome, "ABORTED"), "The program was cancelled.");
    assert.deepEqual(host.aborted, [1]);
    assert.deepEqual(outcome.warnings, ["1 unfinished tool call(s) were cancelled."]);
  });

  it("refuses calls made after the program returned, and aborts calls left running", async () => {
    const host = new FakeHost();
    // Calls 0 and 1 start together; the program returns once 0 is answered, 1 still running.
    const outcome = await run(
      "const first = tools.echo({}); tools.slow({}); await first; (async () => { await null; await null; try { await tools.echo({}) } catch (e) { console.log(e.code) } })(); return 'done'",
      { host },
    );
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.warnings, [
      "1 tool call(s) had not finished when the program returned (missing await?); they were cancelled and their answers discarded.",
      "1 tool call(s) made after the program returned were refused.",
    ]);
    assert.deepEqual(host.aborted, [1]);
    assert.equal(host.seen.length, 2, "the late call never reached the host");
    // A call made in the program's last turn never starts at all.
    const never = new FakeHost();
    assert.equal(await expectValue("tools.slow({}); return 1", { host: never }), 1);
    assert.equal(never.seen.length, 0);
  });

  it("a host that throws or answers nonsense is an answer the program can catch", async () => {
    const host = new FakeHost();
    host.call = (index) => {
      if (index === 0) throw new Error("host broke");
      return Promise.resolve({ nonsense: true } as never);
    };
    const value = await expectValue(
      "const out = []; for (let i = 0; i < 2; i++) { try { await tools.echo({}) } catch (e) { out.push([e.code, e.message]) } } return out",
      { host },
    );
    assert.deepEqual(value, [
      ["tool_error", "The host failed to run the call: host broke"],
      ["tool_error", "The host answered with something that is not an answer."],
    ]);
  });
});
