// `npm run bench [-- --quick] [-- --contenders a,b]`: every row, every contender, each figure in
// a fresh process; repetitions interleaved with the order rotated; every figure divided by the
// raw SDK's in the same repetition; medians and min-max to bench/results/*.json and the table
// in bench/README.md. Exits 1 when a quick run misses its regression guards.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CONTENDERS, NAMED_ONLY, ON_REQUEST, OURS } from "./contenders/index.js";
import { runningEchoServers } from "./echo-servers.js";
import { type KernelOutput, kernelRows } from "./kernel/kernel-rows.js";
import type { RowParams } from "./measure.js";
import { type RowResult, renderTable, summarize } from "./report.js";
import { BASELINES, ROWS, type RowSpec } from "./rows.js";
import {
  type ModelServerProcess,
  runningModelServers,
  startModelServerProcess,
} from "./tokens/model-server-process.js";
import { runningReplayServers } from "./tokens/replay-servers.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.join(here, "..");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const chosen =
  flagValue("--contenders")?.split(",") ??
  (quick
    ? [
        "raw-sdk",
        "raw-v2",
        "pseudoclaude",
        "pseudoclaude-traced",
        "raw-sdk-traced",
        "gateway",
        "gateway-audit",
      ]
    : Object.keys(CONTENDERS).filter((name) => !ON_REQUEST.has(name)));
const only = flagValue("--rows")?.split(",");
const reps = Number(flagValue("--reps") ?? 3);
/**
 * `quick`, `full`, or `rows`: a full-size run of chosen rows (`--rows`) writes results/rows.json
 * and leaves results/full.json and the README's table (the last full run's) as they are.
 */
const mode = quick ? "quick" : only ? "rows" : "full";

function flagValue(name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

/**
 * The environment of every measured process, and so of the servers they start. This machine
 * sets NODE_EXTRA_CA_CERTS, and Node 20 parses that bundle at every start: ~100 ms of CPU per
 * process. Contenders pass different environments to their servers (the raw SDK the whole of
 * it, ours NODE_EXTRA_CA_CERTS on purpose, the AI SDK neither), so with it set a start-up row
 * would charge a contender for its servers' boot. No measured process makes a TLS connection.
 */
function measuredEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** A contender that cannot do a row by design (a feature it lacks), said by its measurement. */
class UnableError extends Error {}

/**
 * One figure set in a fresh process: measure.js for the MCP rows, the row's task script (with
 * the row's model server) for a token row.
 */
function measure(
  contender: string,
  row: RowSpec,
  params: RowParams,
  model?: ModelServerProcess,
): Promise<Record<string, number>> {
  const argv =
    row.kind === "tokens"
      ? [path.join(here, row.task!.script), contender, model?.url ?? ""]
      : ["--expose-gc", path.join(here, "measure.js"), contender, row.kind, JSON.stringify(params)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      stdio: ["ignore", "pipe", "pipe"],
      env: measuredEnv({ NODE_NO_WARNINGS: "1" }),
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    child.once("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code === 0 && line.startsWith("{")) return resolve(JSON.parse(line));
      // measure.js names what failed on a line of its own.
      const reason = /^bench-error: (.*)$/m.exec(err)?.[1];
      const unable = /^bench-unable: (.*)$/m.exec(err)?.[1];
      if (unable) return reject(new UnableError(`${contender} ${row.id}: exit ${code}: ${unable}`));
      reject(
        new Error(`${contender} ${row.id}: exit ${code}${reason ? `: ${reason}` : ""}\n${err}`),
      );
    });
  });
}

const rows = ROWS.filter((row) =>
  only ? only.includes(row.id) : quick ? row.quick !== undefined : true,
);
const results: RowResult[] = [];
const failures: string[] = [];
/** Rows this machine cannot run (a browser not installed), each with how to make it run. */
const skipped: string[] = [];
const findings: string[] = [];
/**
 * The token row's contenders: its own (`only`), those `--contenders` names among them, or in a
 * quick run its `quickContenders`.
 */
function taskContenders(row: RowSpec): string[] {
  const own = row.only ?? [];
  const named = flagValue("--contenders")?.split(",");
  if (named) return own.filter((name) => named.includes(name));
  return quick && row.quickContenders ? row.quickContenders : own;
}

for (const row of rows) {
  let params = quick ? (row.quick as RowParams) : row.params;
  const runs: Record<string, Array<Record<string, number>>> = {};
  /** Peers that failed a 2026 row: how often and the first error, a result, not a broken run. */
  const failed: Record<string, { times: number; error: string }> = {};
  const tokens = row.kind === "tokens";
  // Each row runs its own era's baseline, not the other's (the 1.x SDK cannot speak 2026-07-28).
  // The gateway runs only in the rows that name it.
  const names = tokens
    ? taskContenders(row)
    : chosen.filter(
        (name) =>
          (row.only ? row.only.includes(name) : !NAMED_ONLY.has(name)) &&
          (name === row.baseline || !Object.values(BASELINES).includes(name)),
      );
  // Ours or the baseline failing is a failure wherever; a peer failing a 2026 row (or a token
  // row) is recorded.
  const mustRun = (name: string) =>
    tokens
      ? row.task!.ours.has(name)
      : row.era !== "2026-07-28" || OURS.has(name) || name === row.baseline;
  // A token row: one model server for every contender, the task's sizes in the title.
  let model: ModelServerProcess | undefined;
  if (tokens) {
    params = { ...params, ...row.task!.size() };
    model = await startModelServerProcess(measuredEnv());
  }
  const rowReps = row.reps ?? reps;
  for (let rep = 0; rep < rowReps; rep++) {
    // Rotated, so no contender always runs first (or last) on a warming machine.
    const order = names.map((_, i) => names[(i + rep) % names.length]!);
    for (const name of order) {
      try {
        const figures = await measure(name, row, params, model);
        runs[name] = [...(runs[name] ?? []), figures];
        // Ours must finish the task; a peer that gives up is shown as such in the table.
        if (tokens && figures.completed !== 1)
          (mustRun(name) ? failures : findings).push(
            `${name} ${row.id}: the task was not completed`,
          );
      } catch (error) {
        const message = (error as Error).message;
        // A feature a version lacks (ours included, while it is being built) is a result.
        if (mustRun(name) && !(error instanceof UnableError))
          failures.push(message.split("\n")[0]!);
        else {
          const error = message.split("\n")[0]!.replace(/^\S+ \S+: exit \S+: /, "");
          failed[name] = {
            times: (failed[name]?.times ?? 0) + 1,
            error: failed[name]?.error ?? error,
          };
        }
        process.stderr.write(`${message}\n`);
      }
      // Echo or replay servers still running after a measurement ended: a contender that leaks
      // children.
      const left = tokens ? runningReplayServers() : runningEchoServers();
      if (left.length > 0) {
        // Ours is a failure; a peer's is a finding worth reporting, not a broken run.
        (OURS.has(name) || name === row.baseline ? failures : findings).push(
          `${name} ${row.id}: left ${left.length} server processes running after close`,
        );
        for (const line of left) process.kill(Number(line.trim().split(/\s+/)[0]), "SIGKILL");
      }
    }
  }
  if (model) {
    await model.stop();
    if (runningModelServers().length > 0)
      failures.push(`${row.id}: a model server outlived its row`);
  }
  // Every repetition is tried: a peer may fail some (a timeout its own start-up outruns).
  const unable = Object.fromEntries(
    Object.entries(failed).map(([name, { times, error }]) => [
      name,
      `failed ${times} of ${rowReps} repetitions: ${error}`,
    ]),
  );
  for (const [name, what] of Object.entries(unable)) findings.push(`${name} ${row.id}: ${what}`);
  const packages = tokens
    ? Object.fromEntries(names.map((name) => [name, row.task!.packages[name]!]))
    : undefined;
  const result = summarize(row, params, runs, unable, packages);
  results.push(result);
  const ours = row.guard?.contenders ?? ["pseudoclaude"];
  process.stderr.write(
    `${row.id}: ${JSON.stringify(Object.fromEntries(ours.map((name) => [name, result.contenders[name]?.ratio_vs_raw_sdk ?? {}])))}\n`,
  );
}

const kernel: Record<string, unknown> = {};
const KERNEL = kernelRows(quick);
for (const bench of only
  ? KERNEL.filter((k) => only.includes(k.id))
  : KERNEL.filter((k) => !quick || !k.fullOnly)) {
  const cannot = bench.cannotRun?.();
  if (cannot) {
    skipped.push(`${bench.id}: ${cannot}`);
    process.stderr.write(`${bench.id}: skipped: ${cannot}\n`);
    continue;
  }
  const run = spawnSync(
    process.execPath,
    [...(bench.node ?? []), path.join(here, "kernel", bench.script)],
    {
      encoding: "utf8",
      env: measuredEnv(bench.env),
    },
  );
  // The last JSON document it printed (mcp-call prints an indented one).
  const text = run.stdout.slice(run.stdout.indexOf("{"), run.stdout.lastIndexOf("}") + 1);
  let out: KernelOutput | undefined;
  try {
    out = JSON.parse(text);
  } catch {
    out = undefined;
  }
  if (run.status !== 0 || !out)
    failures.push(`${bench.id}: exit ${run.status} ${run.stderr.trim().split("\n").at(-1) ?? ""}`);
  else {
    kernel[bench.id] = out;
    let missed: string | undefined;
    try {
      missed = bench.guard?.(out);
    } catch (error) {
      missed = (error as Error).message;
    }
    if (missed) failures.push(`${bench.id}: ${missed}`);
  }
  process.stderr.write(`${bench.id}: ${out ? JSON.stringify(out) : "failed (above)"}\n`);
}

const machine = {
  cpu: os.cpus()[0]?.model ?? "unknown",
  cores: os.cpus().length,
  memory_gb: Math.round(os.totalmem() / 1024 ** 3),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
const report = {
  date: new Date().toISOString(),
  mode,
  repetitions: reps,
  machine,
  contenders: Object.fromEntries(chosen.map((name) => [name, CONTENDERS[name]!.package])),
  rows: results,
  kernel,
  failures,
  skipped,
  findings,
};
// BENCH_RESULTS_DIR: elsewhere than bench/results (the bench's own tests write there).
const resultsDir = process.env.BENCH_RESULTS_DIR || path.join(benchDir, "results");
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `${mode}.json`);
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
if (mode === "full") {
  const readme = path.join(benchDir, "README.md");
  const text = readFileSync(readme, "utf8");
  const table = renderTable(report);
  writeFileSync(
    readme,
    text.replace(
      /<!-- results -->[\s\S]*<!-- \/results -->/,
      `<!-- results -->\n${table}\n<!-- /results -->`,
    ),
  );
}
process.stdout.write(`${renderTable(report)}\nwritten: ${file}\n`);

const missed = quick ? results.flatMap((row) => row.missed ?? row.guard?.missed ?? []) : [];
if (failures.length > 0 || missed.length > 0) {
  for (const line of [...failures, ...missed]) process.stderr.write(`bench: ${line}\n`);
  process.exit(1);
}
