// A SandboxHost for tests: answers each tool by a script, after an optional delay, and records
// every call it was asked for (with its signal, so tests can see what was aborted).
import assert from "node:assert/strict";
import type {
  CallAnswer,
  ProgramOptions,
  ProgramOutcome,
  SandboxHost,
} from "../../src/sandbox/index.js";
import { runProgram } from "../../src/sandbox/index.js";

/** One call as the host saw it. */
export interface SeenCall {
  index: number;
  name: string;
  args: unknown;
  signal: AbortSignal;
}

/** How a scripted tool answers: a value, a failure, or never (until aborted). */
export type Script = (args: unknown, call: SeenCall) => CallAnswer | "never";

/** The tools every test program may call, and where they sit in `tools`. */
export const TOOLS = ["echo", "mcp__github__search_issues", "fail", "slow"] as const;
export const NAMESPACES = {
  echo: "echo",
  "github.search_issues": "mcp__github__search_issues",
  fail: "fail",
  slow: "slow",
} as const;
export const START = { nowMs: Date.UTC(2026, 0, 1), seed: [1, 2, 3, 4] } as const;

const SCRIPTS: Record<string, Script> = {
  echo: (args, call) => ({ ok: true, value: args, atMs: START.nowMs + 1000 * (call.index + 1) }),
  mcp__github__search_issues: (args) => ({
    ok: true,
    value: { total_count: 2, items: [{ number: 1, query: args }] },
    atMs: START.nowMs,
  }),
  fail: () => ({ ok: false, code: "denied", message: "Denied by a rule.", atMs: START.nowMs }),
  slow: () => "never",
};

/** A recording host. `delayMs` (per call) makes answers arrive later, in any order. */
export class FakeHost implements SandboxHost {
  readonly seen: SeenCall[] = [];
  running = 0;
  maxRunning = 0;
  paused = 0;

  constructor(
    private readonly options: {
      delayMs?: (call: SeenCall) => number;
      scripts?: Record<string, Script>;
    } = {},
  ) {}

  call(index: number, name: string, args: unknown, signal: AbortSignal): Promise<CallAnswer> {
    const call = { index, name, args, signal };
    this.seen.push(call);
    this.running += 1;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    const script = this.options.scripts?.[name] ?? SCRIPTS[name];
    assert.ok(script, `no script for ${name}`);
    const answer = script(args, call);
    const delay = this.options.delayMs?.(call) ?? 0;
    return new Promise<CallAnswer>((resolve) => {
      const finish = (value: CallAnswer) => {
        this.running -= 1;
        resolve(value);
      };
      if (answer === "never") {
        signal.addEventListener("abort", () =>
          finish({ ok: false, code: "cancelled", message: "aborted", atMs: START.nowMs }),
        );
        return;
      }
      if (delay === 0) queueMicrotask(() => finish(answer));
      else setTimeout(() => finish(answer), delay);
    });
  }

  pausedMs(): number {
    return this.paused;
  }

  /** Calls whose signal was aborted. */
  get aborted(): number[] {
    return this.seen.filter((call) => call.signal.aborted).map((call) => call.index);
  }
}

/** Run `source` with the test tools (and a fresh FakeHost unless one is given). */
export function run(
  source: string,
  options: Partial<Omit<ProgramOptions, "source">> = {},
): Promise<ProgramOutcome> {
  return runProgram({
    source,
    tools: TOOLS,
    namespaces: NAMESPACES,
    host: new FakeHost(),
    start: START,
    ...options,
  });
}

/** The value of a program that must succeed. */
export async function expectValue(
  source: string,
  options: Partial<Omit<ProgramOptions, "source">> = {},
): Promise<unknown> {
  const outcome = await run(source, options);
  assert.ok(outcome.ok, `expected a value, got ${JSON.stringify(outcome)}`);
  return outcome.value;
}

/** Fails the test unless the outcome is a failure with `code`; returns its message. */
export function failureOf(outcome: ProgramOutcome, code: string): string {
  assert.ok(!outcome.ok, `expected ${code}, got the value ${JSON.stringify(outcome)}`);
  assert.equal(outcome.code, code, outcome.message);
  return outcome.message;
}

/** The next program on the module must run as if nothing had happened. */
export async function assertSandboxHealthy(): Promise<void> {
  assert.deepEqual(
    await expectValue(
      "const n: number = 20; return { sum: n + 22, calls: await tools.echo({ n }) }",
    ),
    { sum: 42, calls: { n: 20 } },
  );
}
