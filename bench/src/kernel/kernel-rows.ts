import { existsSync } from "node:fs";

// Our own rows (`src/kernel/`): each a script run in a fresh process by the runner, printing
// one JSON document of figures, with an optional guard that fails the run.
/** What a kernel bench printed: its last JSON document. */
export type KernelOutput = { [key: string]: unknown };

/** A number in a kernel bench's output (NaN when it is not there, which fails no guard silently). */
function figure(out: KernelOutput, ...keys: string[]): number {
  let value: unknown = out;
  for (const key of keys) value = (value as KernelOutput | undefined)?.[key];
  if (typeof value !== "number") throw new Error(`kernel output has no ${keys.join(".")}`);
  return value;
}

/** One of our own rows: its script in `kernel/`, its Node flags and environment, its guard. */
export interface KernelRow {
  id: string;
  script: string;
  node?: string[];
  env?: Record<string, string>;
  guard?: (out: KernelOutput) => string | undefined;
  /** Run by a full run (or `--rows`) only: too slow for the quick one. */
  fullOnly?: boolean;
  /**
   * Why the row cannot run on this machine, with how to make it run (a browser that is not
   * installed); undefined when it can. A row that cannot run is skipped and said, not failed.
   */
  cannotRun?: () => string | undefined;
}

/** The chromium the studio row drives: `PSEUDOCLAUDE_CHROMIUM`, else Debian's. */
export function chromiumPath(): string {
  return process.env.PSEUDOCLAUDE_CHROMIUM || "/usr/bin/chromium";
}

/** Our own rows, each its own script in a fresh process; a failed target fails the run. */
export function kernelRows(quick: boolean): KernelRow[] {
  return [
    {
      id: "call_path_vs_raw_sdk",
      script: "mcp-call.bench.js",
      env: quick
        ? {
            BENCH_CALLS: "600",
            BENCH_SERVERS: "4",
            BENCH_CALL_TARGET: "0.5",
            BENCH_CONNECT_TARGET: "1.5",
          }
        : {},
    },
    { id: "stderr_flood_memory", script: "stderr-memory.bench.js", node: ["--expose-gc"] },
    {
      id: "registry_scale",
      script: "registry-scale.bench.js",
      guard: (out) =>
        figure(out, "growth_1000_to_10000", "register_ms") > 20
          ? `registering grows ${figure(out, "growth_1000_to_10000", "register_ms")}x from 1,000 to 10,000 tools`
          : undefined,
    },
    {
      id: "loop_per_turn",
      script: "loop-turns.bench.js",
      guard: (out) =>
        figure(out, "growth") > 3
          ? `the loop's own work at turn 200 is ${figure(out, "growth")}x that at turn 1`
          : undefined,
    },
    {
      id: "run_journal_per_turn",
      script: "run-journal.bench.js",
      env: quick ? { BENCH_JOURNAL_REPS: "3" } : {},
    },
    {
      id: "studio_first_paint",
      script: "studio-paint.bench.js",
      env: quick ? { BENCH_STUDIO_LOADS: "3" } : {},
      cannotRun: () =>
        existsSync(chromiumPath())
          ? undefined
          : `no chromium at ${chromiumPath()}; install it (apt-get install -y chromium) or set PSEUDOCLAUDE_CHROMIUM to a chromium binary`,
      // The target is under 1 s; a quick run on a busy CI machine guards at 2.5 s.
      guard: (out) => {
        const limit = quick ? 2_500 : 1_000;
        const slow = ["tools_listed_ms", "transcript_200_turns_ms"].filter(
          (key) => figure(out, key) >= limit,
        );
        return slow.length > 0
          ? `studio: ${slow.map((key) => `${key} ${figure(out, key)}`).join(", ")} (limit ${limit} ms)`
          : undefined;
      },
    },
    {
      id: "eight_parallel_reads",
      script: "parallel-reads.bench.js",
      guard: (out) =>
        figure(out, "eight_calls_ms") > 400
          ? `8 read-only 100 ms calls took ${figure(out, "eight_calls_ms")} ms`
          : undefined,
    },
    {
      id: "code_mode_inner_calls",
      script: "code-mode-calls.bench.js",
      env: quick ? { BENCH_CALL_REPS: "3" } : {},
      // The goal is under 1 ms over a direct call (the output says whether it is met); the
      // guard is lenient, for a loaded CI machine: several times the ~0.1-0.3 ms measured.
      guard: (out) =>
        figure(out, "overhead_us") > 2_000
          ? `an inner call costs ${figure(out, "overhead_us")} µs over a direct call (limit 2,000)`
          : undefined,
    },
    {
      id: "code_mode_sandbox_startup",
      script: "code-mode-startup.bench.js",
      env: quick ? { BENCH_COLD_RUNS: "3" } : {},
      // Goals: cold under 150 ms, warm under 5 ms (said in the output); guarded leniently, as
      // a fresh process on a busy machine measured 150-360 ms.
      guard: (out) => {
        const cold = figure(out, "cold_ms");
        const warm = figure(out, "warm_ms");
        return cold > 1_000 || warm > 25
          ? `sandbox start-up: cold ${cold} ms (limit 1,000), warm ${warm} ms (limit 25)`
          : undefined;
      },
    },
    {
      id: "code_mode_peers",
      script: "code-mode-peers.bench.js",
      fullOnly: true,
    },
  ];
}
