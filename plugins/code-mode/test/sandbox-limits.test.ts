// Each limit fires with its own code and a message that says what to do, and the sandbox is
// fine afterwards. No test here measures time: limits are set small and programs exceed them.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_SANDBOX_LIMITS } from "../src/sandbox/index.js";
import {
  assertSandboxHealthy,
  expectValue,
  FakeHost,
  failureOf,
  run,
  START,
} from "./support/fake-host.js";

describe("sandbox limits", () => {
  it("has the documented defaults", () => {
    assert.deepEqual(DEFAULT_SANDBOX_LIMITS, {
      memoryBytes: 32 * 1024 * 1024,
      stackBytes: 512 * 1024,
      cpuMs: 2000,
      wallMs: 60_000,
      maxCalls: 200,
      maxConcurrentCalls: 8,
      maxArgumentBytes: 256 * 1024,
      maxResultBytes: 64 * 1024,
      maxLogBytes: 16 * 1024,
    });
    assert.ok(Object.isFrozen(DEFAULT_SANDBOX_LIMITS));
  });

  it("memory: a program that allocates without end stops with MEMORY_LIMIT", async () => {
    const outcome = await run(
      "const a = []; for (;;) a.push({ i: a.length, s: 'x' + a.length });",
      {
        limits: { memoryBytes: 4 * 1024 * 1024 },
      },
    );
    assert.match(failureOf(outcome, "MEMORY_LIMIT"), /^The program ran out of memory/);
    await assertSandboxHealthy();
  });

  it("stack: deep recursion stops with STACK_OVERFLOW and its line", async () => {
    const outcome = await run("const f = (n) => f(n + 1) + 1;\nreturn f(0);");
    assert.match(failureOf(outcome, "STACK_OVERFLOW"), /^Maximum call stack size exceeded/);
    const shallow = await run("const f = (n) => n === 0 ? 0 : f(n - 1) + 1;\nreturn f(400);", {
      limits: { stackBytes: 16 * 1024 },
    });
    failureOf(shallow, "STACK_OVERFLOW");
    assert.equal(
      await expectValue("const f = (n) => n === 0 ? 0 : f(n - 1) + 1;\nreturn f(400);"),
      400,
    );
  });

  it("cpu: an endless loop stops with CPU_LIMIT, even one the program tries to catch", async () => {
    for (const source of [
      "while (true) {}",
      "for (;;) { try { while (true) {} } catch {} finally { while (true) {} } }",
      "for (;;) await null;",
    ]) {
      const outcome = await run(source, { limits: { cpuMs: 100 } });
      assert.match(failureOf(outcome, "CPU_LIMIT"), /more than 100 ms of CPU time/, source);
    }
    await assertSandboxHealthy();
  });

  it("cpu: time spent waiting for tools does not count", async () => {
    const host = new FakeHost({ delayMs: () => 150 });
    const value = await expectValue(
      "for (let i = 0; i < 3; i++) await tools.echo({ i }); return 'ok'",
      {
        host,
        limits: { cpuMs: 100 },
      },
    );
    assert.equal(value, "ok");
  });

  it("wall: a program waiting too long stops with TIMEOUT and its calls are aborted", async () => {
    const host = new FakeHost();
    const outcome = await run("return await tools.slow({})", { host, limits: { wallMs: 50 } });
    assert.match(
      failureOf(outcome, "TIMEOUT"),
      /longer than 50 ms while 1 tool call\(s\) had not answered/,
    );
    assert.deepEqual(host.aborted, [0]);
    assert.ok(
      outcome.warnings.some((warning) =>
        /1 unfinished tool call\(s\) were cancelled/.test(warning),
      ),
    );
  });

  it("wall: time the host reports as waiting for a person is not counted", async () => {
    const started = Date.now();
    // Every millisecond of this call is "a person deciding": the clock stops for it.
    const host = new FakeHost({ delayMs: () => 150 });
    host.pausedMs = () => Date.now() - started;
    assert.equal(
      await expectValue("return (await tools.echo({ a: 1 })).a", { host, limits: { wallMs: 60 } }),
      1,
    );
    const unpaused = await run("return (await tools.echo({ a: 1 })).a", {
      host: new FakeHost({ delayMs: () => 150 }),
      limits: { wallMs: 60 },
    });
    failureOf(unpaused, "TIMEOUT");
  });

  it("calls: one call past the limit stops the program with CALL_LIMIT and aborts those in flight", async () => {
    const host = new FakeHost();
    // Calls 0 and 1 start together; once 0 is answered the loop makes calls 2..6, and call 6
    // is one too many: call 1 is still running and gets aborted; 2..5 never start.
    const source =
      "const first = tools.echo({}); const background = tools.slow({}); await first; for (;;) tools.echo({});";
    const outcome = await run(source, { host, limits: { maxCalls: 6 } });
    assert.match(failureOf(outcome, "CALL_LIMIT"), /more than 6 tool calls/);
    assert.equal(outcome.calls, 6);
    assert.deepEqual(host.aborted, [1], "the call in flight");
    assert.equal(host.seen.length, 2);
    assert.deepEqual(outcome.warnings, ["5 unfinished tool call(s) were cancelled."]);
    // A loop that never waits: the calls it queued are dropped, never started.
    const queued = new FakeHost();
    failureOf(
      await run("for (;;) tools.slow({})", { host: queued, limits: { maxCalls: 5 } }),
      "CALL_LIMIT",
    );
    assert.equal(queued.seen.length, 0);
    // Up to the limit is fine.
    assert.equal(
      await expectValue("for (let i = 0; i < 5; i++) await tools.echo({}); return 5", {
        limits: { maxCalls: 5 },
      }),
      5,
    );
  });

  it("concurrency: calls beyond the limit wait their turn, in order, and all complete", async () => {
    const host = new FakeHost({ delayMs: (call) => 1 + (call.index % 3) * 5 });
    const value = await expectValue(
      "return (await Promise.all(Array.from({ length: 30 }, (_, i) => tools.echo({ i })))).map((r) => r.i)",
      { host, limits: { maxConcurrentCalls: 4 } },
    );
    assert.deepEqual(
      value,
      Array.from({ length: 30 }, (_, i) => i),
    );
    assert.equal(host.maxRunning, 4);
    assert.deepEqual(
      host.seen.map((call) => call.index),
      Array.from({ length: 30 }, (_, i) => i),
      "started in call order",
    );
  });

  it("argument bytes: a call with too large arguments throws invalid_arguments and is not made", async () => {
    const host = new FakeHost();
    const value = await expectValue(
      "try { await tools.echo({ big: 'x'.repeat(3000) }) } catch (e) { return [e.code, e.message] }",
      { host, limits: { maxArgumentBytes: 1024 } },
    );
    assert.deepEqual(value, [
      "invalid_arguments",
      "Arguments for echo are 3010 bytes of JSON; the limit is 1024. Pass less (an id, a query) instead.",
    ]);
    assert.equal(host.seen.length, 0);
    const uncaught = await run("await tools.echo({ big: 'x'.repeat(3000) })", {
      limits: { maxArgumentBytes: 1024 },
    });
    assert.match(
      failureOf(uncaught, "THROWN"),
      /^ToolError \(invalid_arguments\): Arguments for echo are 3010 bytes/,
    );
  });

  it("result bytes: a returned value over the limit stops with OUTPUT_LIMIT", async () => {
    const outcome = await run("return 'é'.repeat(600)", { limits: { maxResultBytes: 1000 } });
    assert.equal(
      failureOf(outcome, "OUTPUT_LIMIT"),
      "The returned value is 1202 bytes of JSON; the limit is 1000. Return less (summarise, slice, count) instead.",
    );
    assert.equal(
      await expectValue("return 'é'.repeat(499)", { limits: { maxResultBytes: 1000 } }),
      "é".repeat(499),
    );
  });

  it("log bytes: console output is kept up to the limit, cut on a character, with a warning", async () => {
    const outcome = await run(
      "for (let i = 0; i < 1000; i++) console.log('line ' + i + ' é'); return 'done'",
      {
        limits: { maxLogBytes: 100 },
      },
    );
    assert.ok(outcome.ok);
    assert.ok(Buffer.byteLength(outcome.logs) <= 100, outcome.logs);
    assert.ok(outcome.logs.startsWith("line 0 é\nline 1 é\n"));
    assert.ok(!outcome.logs.endsWith("\uFFFD"));
    assert.deepEqual(outcome.warnings, ["Console output was cut at 100 bytes."]);
  });

  it("an answer too large for the program's memory stops it with MEMORY_LIMIT", async () => {
    const host = new FakeHost({
      scripts: {
        echo: () => ({ ok: true, value: "x".repeat(8 * 1024 * 1024), atMs: START.nowMs }),
      },
    });
    const outcome = await run("const r = await tools.echo({}); return r.length", {
      host,
      limits: { memoryBytes: 4 * 1024 * 1024 },
    });
    assert.match(
      failureOf(outcome, "MEMORY_LIMIT"),
      /does not fit in the program's memory|ran out of memory/,
    );
    await assertSandboxHealthy();
  });
});
