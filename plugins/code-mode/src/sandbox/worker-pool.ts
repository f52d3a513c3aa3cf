// The process's sandbox workers. Programs run on worker threads, never on the agent's own:
// QuickJS checks its interrupt handler only between interpreter steps, and one step can be one
// long built-in (`s.indexOf` over megabytes, in a loop), so only a thread that can be ended
// from outside bounds a program's time. Workers start on the first program (or warmSandbox()),
// one by default and at most two (one per core of a small machine); each runs several programs
// at once, one runtime each, since a program waiting for its tools or for a person holds no
// thread, and a tool may itself run a program. A worker ended or crashed is replaced by the
// next program that needs one.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "@pseudoclaude/core/errors";
import { PooledWorker } from "./pooled-worker.js";
import { ProgramSupervisor, type SupervisedProgram } from "./program-supervisor.js";
import type { ProgramOutcome } from "./program-types.js";

/** How many workers the pool may start. */
export interface SandboxPoolOptions {
  /** 1 (the default) or 2; programs share them, the least busy first. */
  workers?: number | undefined;
}

/** Counts of the pool and its workers' modules (tests, diagnostics). */
export interface SandboxPoolStats {
  /** Workers started so far, and those alive now. */
  workersStarted: number;
  workersAlive: number;
  /** Programs running now. */
  running: number;
  /** WebAssembly modules loaded, and thrown away (after a crash, or with their worker). */
  created: number;
  discarded: number;
  /** WebAssembly memory of the live workers' modules. */
  memoryBytes: number;
}

const MAX_WORKERS = 2;
let size = 1;
let workers: PooledWorker[] = [];
let nextRunId = 1;
let script: string | URL | undefined;
const retired = { started: 0, created: 0, discarded: 0 };

/** Set how many workers the pool may start (1 or 2); workers already running stay. */
export function configureSandbox(options: SandboxPoolOptions): void {
  const wanted = options.workers ?? 1;
  if (!Number.isInteger(wanted) || wanted < 1 || wanted > MAX_WORKERS)
    throw new UsageError(
      "invalid_program_options",
      `The sandbox runs on 1 or ${MAX_WORKERS} workers (got ${String(wanted)}).`,
    );
  size = wanted;
}

/** Run one prepared program on a worker; the outcome says how it ended, whatever happens. */
export function runOnPool(program: SupervisedProgram): Promise<ProgramOutcome> {
  const worker = pickWorker();
  const supervisor = new ProgramSupervisor(nextRunId++, program, worker);
  worker.run(supervisor);
  return supervisor.finished;
}

/** Start a worker if none is alive and wait until it has loaded its module. */
export async function warmPool(): Promise<void> {
  const worker = workers[0] ?? spawn();
  await worker.warm();
}

/**
 * End every worker; programs still running end with ABORTED. The next program starts a new
 * pool. An idle pool never keeps the process alive, so this is for tests and orderly exits.
 */
export async function closeSandbox(): Promise<void> {
  const closing = workers;
  await Promise.all(
    closing.map((worker) =>
      worker.close({ code: "ABORTED", message: "The sandbox was shut down." }),
    ),
  );
}

/** What the pool has started and holds now. */
export function sandboxPoolStats(): SandboxPoolStats {
  const stats: SandboxPoolStats = {
    workersStarted: retired.started + workers.length,
    workersAlive: workers.length,
    running: 0,
    created: retired.created,
    discarded: retired.discarded,
    memoryBytes: 0,
  };
  for (const worker of workers) {
    stats.running += worker.load;
    stats.created += worker.stats.created;
    stats.discarded += worker.stats.discarded;
    stats.memoryBytes += worker.stats.memoryBytes;
  }
  return stats;
}

/** Tests: run workers from another script (one that wraps the real one), or the real one again. */
export function setSandboxWorkerScript(replacement: string | URL | undefined): void {
  script = replacement;
}

/** The least busy live worker, or a new one while the pool has room and all are busy. */
function pickWorker(): PooledWorker {
  let best: PooledWorker | undefined;
  for (const worker of workers) if (!best || worker.load < best.load) best = worker;
  if (best && (best.load === 0 || workers.length >= size)) return best;
  return spawn();
}

function spawn(): PooledWorker {
  // Called once per worker, when it ends for any reason (closeSandbox has already let go of it).
  const worker = new PooledWorker(script ?? workerScript(), (gone) => {
    workers = workers.filter((other) => other !== gone);
    // Its modules end with it.
    retired.started += 1;
    retired.created += gone.stats.created;
    retired.discarded += gone.stats.created;
  });
  workers.push(worker);
  return worker;
}

/** The build this code runs from: the bundle starts the bundled worker, dist/src its own. */
const BUILD = fileURLToPath(import.meta.url).includes(`${path.sep}dist${path.sep}bundle${path.sep}`)
  ? "bundle"
  : "src";

/**
 * The worker's script of the same build, found from the package's root: the code that starts
 * it may run from dist/src or from a chunk of dist/bundle, at different depths, and the
 * package does not export its package.json to find it by name.
 */
function workerScript(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(folder, "package.json"))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error("plugin-code-mode: its package.json was not found.");
    folder = parent;
  }
  return path.join(folder, "dist", BUILD, "sandbox", "sandbox-worker.js");
}
