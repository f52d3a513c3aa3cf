// What a program sees depends only on its start record and the answers it is given: answers
// are delivered in call order, time is virtual, chance is seeded, local time is UTC.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CallAnswer, SandboxHost } from "../src/sandbox/index.js";
import { expectValue, FakeHost, NAMESPACES, run, START, TOOLS } from "./support/fake-host.js";

/** A program whose path depends on which call of a race wins and on what each answers. */
const RACING = `
  const t0 = Date.now();
  const pick = Math.random() < 0.5 ? "alpha" : "beta";
  const first = await Promise.race([tools.echo({ q: pick, n: 1 }), tools.github.search_issues({ q: pick })]);
  const follow = first.n === 1 ? await tools.echo({ q: "after-echo" }) : await tools.echo({ q: "after-search" });
  const order = [];
  await Promise.all([1, 2, 3, 4].map(async (i) => { const r = await tools.echo({ i }); order.push(r.i); }));
  const settled = await Promise.allSettled([tools.fail({}), tools.echo({ last: true })]);
  return { pick, first, follow, order, settled: settled.map((s) => s.status), rand: Math.random(),
           elapsed: Date.now() - t0, date: new Date().toISOString(), dates: [t0] };
`;

/** Answers each call with a random value after a random delay, and records what it answered. */
class RandomHost implements SandboxHost {
  readonly record: Array<{ name: string; args: unknown; answer: CallAnswer }> = [];
  call(index: number, name: string, args: unknown): Promise<CallAnswer> {
    const answer: CallAnswer =
      name === "fail"
        ? { ok: false, code: "denied", message: "no", atMs: START.nowMs + Math.random() * 5000 }
        : {
            ok: true,
            value: {
              ...(args as object),
              n: name === "echo" ? 1 : 2,
              hits: Math.floor(Math.random() * 100),
            },
            atMs: START.nowMs + Math.floor(Math.random() * 5000),
          };
    this.record[index] = { name, args, answer };
    return new Promise((resolve) => setTimeout(() => resolve(answer), Math.random() * 30));
  }
}

/** Answers at once from a record, checking that the program asks the same things. */
class ReplayHost implements SandboxHost {
  constructor(private readonly record: RandomHost["record"]) {}
  async call(index: number, name: string, args: unknown): Promise<CallAnswer> {
    const recorded = this.record[index];
    assert.ok(recorded, `call #${index} was not recorded`);
    assert.deepEqual([name, args], [recorded.name, recorded.args], `call #${index} diverged`);
    return recorded.answer;
  }
}

describe("deterministic delivery", () => {
  it("a replay answering at once from the record takes the same path and sees the same time and chance", async () => {
    for (let round = 0; round < 3; round++) {
      const live = new RandomHost();
      const recorded = await run(RACING, { host: live });
      assert.ok(recorded.ok, JSON.stringify(recorded));
      const replayed = await run(RACING, { host: new ReplayHost(live.record) });
      assert.deepEqual(replayed, { ...recorded, durationMs: replayed.durationMs });
    }
  });

  it("delivers answers in call order: a race settles with the first-made call once it finishes", async () => {
    // The second call answers at once, the first after 40 ms: the program still sees the first.
    const host = new FakeHost({ delayMs: (call) => (call.index === 0 ? 40 : 0) });
    const value = await expectValue(
      "const seen = []; const a = tools.echo({ id: 'slow' }).then((r) => { seen.push(r.id); return r.id });" +
        " const b = tools.echo({ id: 'fast' }).then((r) => { seen.push(r.id); return r.id });" +
        " const winner = await Promise.race([a, b]); await b; return { winner, seen }",
      { host },
    );
    assert.deepEqual(value, { winner: "slow", seen: ["slow", "fast"] });
  });

  it("moves the clock only to delivered answers' times, never backwards", async () => {
    const times = [5000, 2000, 9000];
    const host = new FakeHost({
      scripts: {
        echo: (args, call) => ({
          ok: true,
          value: args,
          atMs: START.nowMs + (times[call.index] ?? 0),
        }),
      },
    });
    const value = await expectValue(
      "const t = [Date.now()]; for (let i = 0; i < 3; i++) { for (let k = 0; k < 1e5; k++); await tools.echo({ i }); t.push(Date.now()) } return t.map((x) => x - t[0])",
      { host },
    );
    assert.deepEqual(value, [0, 5000, 5000, 9000]);
  });
});

describe("time and chance", () => {
  it("starts the clock at the start record and seeds Math.random from it", async () => {
    const source =
      "return [Date.now(), new Date().getTime(), Date(), Math.random(), Math.random()]";
    const a = (await expectValue(source)) as [number, number, string, number, number];
    assert.equal(a[0], START.nowMs);
    assert.equal(a[1], START.nowMs);
    assert.equal(a[2], "Thu Jan 01 2026 00:00:00 GMT+0000");
    assert.ok(a[3] >= 0 && a[3] < 1 && a[3] !== a[4]);
    assert.deepEqual(await expectValue(source), a, "same start, same values");
    const other = await expectValue(source, { start: { nowMs: 0, seed: [9, 8, 7, 6] } });
    assert.notDeepEqual((other as number[])[3], a[3]);
  });

  it("keeps Math.random seeded however the program tries to reset it", async () => {
    const value = await expectValue(
      "'use strict'; let replaced; try { Math.random = () => 0.5; replaced = true } catch { replaced = false } return [replaced, Math.random() !== 0.5]",
    );
    assert.deepEqual(value, [false, true]);
  });

  it("shows local time as UTC whatever the host's time zone", async () => {
    const before = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      const value = await expectValue(
        [
          "const d = new Date(Date.UTC(2024, 6, 1, 23, 30));",
          "return [d.getHours(), d.getDate(), d.getTimezoneOffset(), d.toString(), d.toDateString(),",
          "  d.toTimeString(), d.toLocaleString(), new Date(2024, 0, 1, 10).toISOString(),",
          "  Date.parse('2024-01-01T10:00'), Date.parse('Jan 1 2024 10:00'), Date.parse('2024-01-01T10:00+02:00'),",
          "  new Date('2024-01-01 10:00').toISOString(), new Date(NaN).toString(), new Date(0).getYear(),",
          "  (() => { const x = new Date(0); x.setHours(5); return x.getUTCHours() })(), new Date(0) instanceof Date]",
        ].join("\n"),
      );
      assert.deepEqual(value, [
        23,
        1,
        0,
        "Mon Jul 01 2024 23:30:00 GMT+0000",
        "Mon Jul 01 2024",
        "23:30:00 GMT+0000",
        "07/01/2024, 11:30:00 PM",
        "2024-01-01T10:00:00.000Z",
        Date.UTC(2024, 0, 1, 10),
        Date.UTC(2024, 0, 1, 10),
        Date.UTC(2024, 0, 1, 8),
        "2024-01-01T10:00:00.000Z",
        "Invalid Date",
        70,
        5,
        true,
      ]);
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it("lets a program subclass Date and read its name", async () => {
    const value = await expectValue(
      "class Day extends Date { label() { return this.toISOString().slice(0, 10) } } const d = new Day(0); return [d.label(), d instanceof Date, Date.name, Date.length, typeof Date.UTC]",
    );
    assert.deepEqual(value, ["1970-01-01", true, "Date", 7, "function"]);
  });
});

describe("the tool namespaces", () => {
  it("are built from the namespaces given, not from the tool names", async () => {
    const value = await expectValue("return [typeof tools.search.issues, typeof tools.echo]", {
      tools: TOOLS,
      namespaces: { ...NAMESPACES, "search.issues": "mcp__github__search_issues" },
    });
    assert.deepEqual(value, ["function", "function"]);
  });
});
