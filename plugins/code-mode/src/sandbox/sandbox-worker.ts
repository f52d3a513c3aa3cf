// The sandbox worker's entry point: it runs programs for the agent's thread, each on its own
// QuickJS runtime on the worker's shared WebAssembly module, several at a time (a program that
// waits for its tools holds no thread). Guest code only ever runs here, so however long one
// built-in takes, the agent's event loop keeps turning, and the agent's thread can end this
// worker outright (see worker-pool.ts).
import { parentPort } from "node:worker_threads";
import { CpuMeter } from "./cpu-meter.js";
import type { ProgramFailure } from "./guest-failure.js";
import { ProgramRun } from "./program-run.js";
import { leaseSandboxModule, sandboxModuleStats, useCompiledWasm } from "./sandbox-module.js";
import type { CompiledWasm } from "./sandbox-wasm.js";
import type { FromWorker, StartMessage, ToWorker } from "./worker-protocol.js";

const port = parentPort;
if (!port) throw new Error("sandbox-worker.js runs only as a worker thread.");

const runs = new Map<number, ProgramRun>();
/** Runs waiting for the module, and those of them already aborted. */
const starting = new Set<number>();
const abortedEarly = new Set<number>();
let outbox: FromWorker[] = [];
const send = (message: FromWorker) => void outbox.push(message);

/**
 * Report the runs that ended, then post everything this turn produced as ONE message: a call
 * made in the same turn as the program's end reaches the agent's thread together with that end,
 * which halts the call before it starts.
 */
function flush(): void {
  for (let found = true; found; ) {
    found = false;
    for (const [runId, run] of runs)
      if (run.ended) {
        // Releasing one run can crash the module, which ends the others on it: look again.
        found = true;
        runs.delete(runId);
        send({ type: "done", runId, ...run.report(), stats: sandboxModuleStats() });
      }
  }
  if (outbox.length === 0) return;
  const batch = outbox;
  outbox = [];
  port?.postMessage(batch);
}

function endEarly(runId: number, failure: ProgramFailure): void {
  send({
    type: "done",
    runId,
    ending: { ok: false, ...failure },
    calls: 0,
    lateCalls: 0,
    logsCut: false,
    warnings: [],
    stats: sandboxModuleStats(),
  });
}

async function start(message: StartMessage): Promise<void> {
  const { runId } = message;
  starting.add(runId);
  let lease: Awaited<ReturnType<typeof leaseSandboxModule>>;
  try {
    lease = await leaseSandboxModule();
  } catch (error) {
    endEarly(runId, {
      code: "INTERNAL",
      message: `The sandbox could not be loaded: ${text(error)}`,
    });
    return;
  } finally {
    starting.delete(runId);
  }
  if (abortedEarly.delete(runId)) {
    lease.release();
    endEarly(runId, { code: "ABORTED", message: "The program was stopped by its host." });
    return;
  }
  try {
    runs.set(runId, new ProgramRun(lease, message, new CpuMeter(message.meter), send));
  } catch (error) {
    // Creating the runtime failed inside the module: it may be damaged, so nobody reuses it.
    lease.poison();
    lease.release();
    endEarly(runId, {
      code: "INTERNAL",
      message: `The sandbox could not start a runtime: ${text(error)}`,
    });
    return;
  }
  runs.get(runId)?.start();
}

let wasmArrived: (module: CompiledWasm | undefined) => void = () => {};
useCompiledWasm(
  new Promise((resolve) => {
    wasmArrived = resolve;
  }),
);

port.on("message", (message: ToWorker) => {
  if (message.type === "wasm") {
    wasmArrived(message.module);
    return;
  }
  if (message.type === "start") {
    // Whatever the start did (ran the program, or ended it early) goes out when it is over.
    void start(message).finally(flush);
    return;
  }
  const run = runs.get(message.runId);
  if (message.type === "answer") run?.deliver(message.answer);
  else if (run) run.stop();
  else if (starting.has(message.runId)) abortedEarly.add(message.runId);
  flush();
});

// Load the module at once: a worker exists to run programs. A module that cannot load is an
// uncaught error: the worker ends, and the pool fails its programs and tries a new worker later.
const lease = await leaseSandboxModule();
lease.release();
send({ type: "ready", stats: sandboxModuleStats() });
flush();

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
