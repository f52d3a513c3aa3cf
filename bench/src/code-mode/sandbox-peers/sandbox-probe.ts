// One sandbox's figures in a fresh process (`node sandbox-probe.js PEER PHASE ...`), printed as
// one JSON line:
// - `startup [WARM_RUNS]`: cold (import and the first run of `return 1 + 1`, clocked inside
//   this process from before the import), warm (the median of WARM_RUNS more runs);
// - `calls seq|parallel N [REPS]`: a program making N echo calls (one after another, or all at
//   once with Promise.all) against N direct calls of the same tool, after five warm runs,
//   interleaved REPS times with a trivial program; µs per call, the program's own start-up
//   (the trivial program's time) taken out.
import { SANDBOX_PEERS } from "./index.js";
import {
  expectedSum,
  type PeerRunner,
  parallelCalls,
  sequentialCalls,
  TRIVIAL,
  unwrap,
} from "./sandbox-peer.js";

// The static imports above are the bench's own small files; every package a sandbox needs is
// imported by its `load()`, after this.
const t0 = performance.now();

const [name = "", phase = "", ...rest] = process.argv.slice(2);
const peer = SANDBOX_PEERS[name];
if (!peer || !["startup", "calls"].includes(phase)) {
  process.stderr.write(
    `usage: sandbox-probe.js PEER startup [WARM_RUNS] | calls seq|parallel N [REPS]; peers ${Object.keys(SANDBOX_PEERS).join(", ")}\n`,
  );
  process.exit(2);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (value: number) => Number(value.toFixed(value >= 100 ? 0 : 2));

async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; value: unknown }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

async function startup(runner: PeerRunner, warmRuns: number) {
  const first = unwrap(await runner.run(TRIVIAL));
  const cold = performance.now() - t0;
  if (first !== 2) throw new Error(`return 1 + 1 gave ${JSON.stringify(first)}`);
  const sinceStart = performance.now();
  const warm: number[] = [];
  for (let i = 0; i < warmRuns; i++) warm.push((await timed(() => runner.run(TRIVIAL))).ms);
  return {
    cold_ms: round(cold),
    // The same moment measured from the process's own start: Node's boot included.
    cold_since_process_start_ms: round(sinceStart),
    warm_ms: round(median(warm)),
    warm_runs: warmRuns,
  };
}

async function calls(runner: PeerRunner, shape: string, n: number, reps: number) {
  const program = (shape === "parallel" ? parallelCalls : sequentialCalls)(runner.echo, n);
  for (let i = 0; i < 5; i++) await runner.run(TRIVIAL);
  const programs: number[] = [];
  const direct: number[] = [];
  const trivial: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const base = await timed(() => runner.run(TRIVIAL));
    const run = await timed(() => runner.run(program));
    const sum = Number(unwrap(run.value));
    if (sum !== expectedSum(n)) throw new Error(`the ${n} calls summed to ${sum}`);
    const straight = await timed(async () => {
      for (let i = 0; i < n; i++) await runner.direct(i);
    });
    trivial.push(base.ms);
    programs.push(run.ms);
    direct.push((straight.ms * 1000) / n);
  }
  // Medians first, then the difference: a program's own start varies more than one call costs.
  const callUs = ((median(programs) - median(trivial)) * 1000) / n;
  const directUs = median(direct);
  return {
    shape,
    calls: n,
    reps,
    call_us: round(callUs),
    direct_call_us: round(directUs),
    overhead_us: round(callUs - directUs),
    program_ms: round(median(programs)),
    trivial_program_ms: round(median(trivial)),
  };
}

try {
  const runner = await peer.load();
  const figures =
    phase === "startup"
      ? await startup(runner, Number(rest[0] ?? 30))
      : await calls(
          runner,
          rest[0] ?? "seq",
          Number(rest[1] ?? peer.calls ?? 200),
          Number(rest[2] ?? 5),
        );
  await runner.close?.();
  process.stdout.write(`${JSON.stringify({ peer: name, node: process.version, ...figures })}\n`);
  process.exit(0);
} catch (error) {
  process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
  process.stderr.write(
    `bench-error: ${String((error as Error)?.message ?? error).split("\n")[0]}\n`,
  );
  process.exit(1);
}
