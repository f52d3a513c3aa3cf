// Hostile programs: each ends with its expected code and a clear message, the host process is
// unharmed, and the next program (on the same module, on a fresh one where a stack overflow of
// the worker thread forced it, or on a fresh worker where one had to be ended) runs fine.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sandboxPoolStats } from "../src/sandbox/index.js";
import { assertSandboxHealthy, FakeHost, run } from "./support/fake-host.js";
import {
  BRIDGE_ATTACKS,
  type HostileProgram,
  RESOURCE_ATTACKS,
} from "./support/hostile-programs.js";

async function attack(program: HostileProgram): Promise<void> {
  const host = new FakeHost();
  const outcome = await run(program.source, {
    host,
    ...(program.limits ? { limits: program.limits } : {}),
  });
  if (program.ends === "ok") {
    assert.ok(outcome.ok, `${program.name}: ${JSON.stringify(outcome)}`);
    assert.match(JSON.stringify(outcome.value), program.shows);
  } else {
    assert.ok(!outcome.ok, `${program.name}: returned ${JSON.stringify(outcome)}`);
    assert.equal(outcome.code, program.ends, `${program.name}: ${outcome.message}`);
    assert.match(outcome.message, program.shows, program.name);
  }
  if (program.warns)
    assert.ok(
      outcome.warnings.some((warning) => program.warns?.test(warning)),
      outcome.warnings.join("\n"),
    );
  // Every call the host was asked for has ended, one way or another.
  assert.equal(host.running, 0, `${program.name}: calls left running on the host`);
}

describe("hostile programs", () => {
  for (const program of [...RESOURCE_ATTACKS, ...BRIDGE_ATTACKS])
    it(`${program.name}: ${program.ends}, and the next program runs`, async () => {
      await attack(program);
      await assertSandboxHealthy();
    });

  it("counts at least 25 of them", () => {
    assert.ok(RESOURCE_ATTACKS.length + BRIDGE_ATTACKS.length >= 25);
  });

  it("leave the host's own globals alone", async () => {
    await run(
      "Object.prototype.polluted = 1; Array.prototype.map = null; JSON.parse = null; return 1",
    );
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    assert.equal(typeof [].map, "function");
    assert.deepEqual(JSON.parse('{"a":1}'), { a: 1 });
  });

  it("a host stack overflow replaces the module once, and a normal program never does", async () => {
    const before = sandboxPoolStats();
    const overflow = RESOURCE_ATTACKS.find((program) => program.name.includes("4 MiB stack"));
    assert.ok(overflow);
    await attack(overflow);
    await assertSandboxHealthy();
    const after = sandboxPoolStats();
    assert.ok(after.discarded - before.discarded <= 1);
    assert.equal(after.created - before.created, after.discarded - before.discarded);
    for (const program of BRIDGE_ATTACKS) await attack(program);
    assert.equal(
      sandboxPoolStats().discarded,
      after.discarded,
      "no module lost to a bridge attack",
    );
  });

  it("a host whose call starts another program is never entered from inside the first", async () => {
    const previousLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = Number.POSITIVE_INFINITY;
    const stacks: string[] = [];
    const host = new FakeHost({
      scripts: {
        echo: (args) => {
          stacks.push(new Error("probe").stack ?? "");
          return { ok: true, value: args, atMs: 0 };
        },
      },
    });
    const inner = host.call.bind(host);
    // The tool runs a program of its own (code mode inside code mode) before answering.
    host.call = async (index, name, args, signal) => {
      const nested = await run("return (await tools.echo({ nested: true })).nested", {
        host: new FakeHost(),
      });
      assert.ok(nested.ok);
      return inner(index, name, args, signal);
    };
    try {
      const outcome = await run(
        "return (await Promise.all([tools.echo({ a: 1 }), tools.echo({ a: 2 })])).map((r) => r.a)",
        { host },
      );
      assert.deepEqual(outcome.ok && outcome.value, [1, 2]);
    } finally {
      Error.stackTraceLimit = previousLimit;
    }
    assert.equal(stacks.length, 2);
    for (const stack of stacks)
      assert.doesNotMatch(stack, /hostCall|executePendingJobs|callFunction|evalCode/);
  });
});
