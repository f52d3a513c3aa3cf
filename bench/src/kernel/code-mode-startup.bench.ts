// Code mode's sandbox start-up: cold, a fresh Node process importing
// @pseudoclaude/plugin-code-mode and running its first program (`return 1 + 1`), clocked inside
// the process from before the import (BENCH_COLD_RUNS processes, the median); warm, the median
// of 30 more programs in each of those processes, each in a fresh QuickJS runtime and context
// on the loaded module. Goals: cold under 150 ms, warm under 5 ms.
import { pseudoclaudeSandbox } from "../code-mode/sandbox-peers/ours.js";
import { median, runProbe } from "../code-mode/sandbox-peers/run-probe.js";

const runs = Number(process.env.BENCH_COLD_RUNS ?? 7);
const cold: number[] = [];
const sinceStart: number[] = [];
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  const probe = await runProbe(pseudoclaudeSandbox, ["startup", "30"]);
  if (!probe.ok) throw new Error(`sandbox probe: ${probe.error}`);
  cold.push(Number(probe.figures.cold_ms));
  sinceStart.push(Number(probe.figures.cold_since_process_start_ms));
  warm.push(Number(probe.figures.warm_ms));
}
const coldMs = median(cold);
const warmMs = median(warm);
console.log(
  JSON.stringify({
    processes: runs,
    cold_ms: coldMs,
    cold_min_max_ms: [Math.min(...cold), Math.max(...cold)],
    cold_since_process_start_ms: median(sinceStart),
    warm_ms: warmMs,
    warm_min_max_ms: [Math.min(...warm), Math.max(...warm)],
    goal_cold_ms: 150,
    goal_warm_ms: 5,
    met: coldMs < 150 && warmMs < 5,
  }),
);
