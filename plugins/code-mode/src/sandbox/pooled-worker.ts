import { Worker } from "node:worker_threads";
import type { ProgramFailure } from "./guest-failure.js";
import type { ProgramSupervisor, ProgramWorker } from "./program-supervisor.js";
import { compiledSandboxWasm } from "./sandbox-wasm.js";
import type { FromWorker, ModuleStats, ToWorker } from "./worker-protocol.js";

/**
 * What a sandbox worker may use of its own. The 8 MiB stack lets QuickJS have 512 KiB of stack
 * (its WebAssembly frames live on the thread's stack, and Node's main thread gives only about
 * 1 MiB). The heap cap bounds the worker's own JavaScript (strings in transit, the module's
 * glue), not the programs, whose memory is WebAssembly memory under each runtime's own limit;
 * no string over MAX_BRIDGE_CHARS enters it, so one allocation never jumps past the cap.
 */
export const WORKER_RESOURCE_LIMITS = Object.freeze({
  stackSizeMb: 8,
  maxOldGenerationSizeMb: 256,
});

const COLLATERAL: ProgramFailure = {
  code: "INTERNAL",
  message:
    "The sandbox's worker was replaced after another program on it had to be stopped by force; run this program again.",
};

/**
 * One worker thread of the pool and the programs running on it. The worker holds the process
 * open only while it has programs (or someone awaits its start); idle, it is unref'd. When it
 * ends (ended by force, crashed, out of memory) every program on it ends with a failure that
 * says why, and the pool replaces it for the next program.
 */
export class PooledWorker implements ProgramWorker {
  private readonly worker: Worker;
  private readonly programs = new Map<number, ProgramSupervisor>();
  private holds = 0;
  private isReady = false;
  private gone = false;
  private crash: Error | undefined;
  /** The worker's modules as it last reported them. */
  stats: ModuleStats = { created: 0, discarded: 0, memoryBytes: 0 };
  /** Settles once the module is loaded, or the worker is gone. */
  readonly ready: Promise<void>;

  constructor(
    script: string | URL,
    private readonly onGone: (worker: PooledWorker) => void,
  ) {
    // No execArgv: the parent's preloads and loaders are for the agent, not for the sandbox.
    this.worker = new Worker(script, { resourceLimits: WORKER_RESOURCE_LIMITS, execArgv: [] });
    this.worker.unref();
    void compiledSandboxWasm().then((module) => this.send({ type: "wasm", module }));
    let loaded: () => void = () => {};
    this.ready = new Promise((resolve) => {
      loaded = resolve;
    });
    this.worker.on("message", (batch: FromWorker[]) => {
      for (const message of batch) {
        if (message.type === "ready") {
          this.isReady = true;
          this.stats = message.stats;
          loaded();
          continue;
        }
        if (message.type === "done") this.stats = message.stats;
        this.programs.get(message.runId)?.receive(message);
      }
    });
    this.worker.on("error", (error) => {
      this.crash = error;
    });
    this.worker.on("exit", (code) => {
      this.died(code);
      loaded();
    });
  }

  /** Programs running on this worker. */
  get load(): number {
    return this.programs.size;
  }

  /** False once the worker was ended or died. */
  get alive(): boolean {
    return !this.gone;
  }

  /** Run a program here. */
  run(program: ProgramSupervisor): void {
    this.programs.set(program.runId, program);
    this.hold();
    if (this.gone) program.lost(this.crashFailure(1));
    else program.begin();
  }

  /** Wait until the worker can run programs, holding the process open meanwhile. */
  async warm(): Promise<void> {
    this.holds += 1;
    this.hold();
    try {
      await this.ready;
    } finally {
      this.holds -= 1;
      this.hold();
    }
    if (!this.isReady) throw new Error(this.crashFailure(1).message);
  }

  send(message: ToWorker): void {
    if (!this.gone) this.worker.postMessage(message);
  }

  busyWithOther(program: ProgramSupervisor): boolean {
    for (const other of this.programs.values()) if (other !== program && other.inVm) return true;
    return false;
  }

  release(program: ProgramSupervisor): void {
    this.programs.delete(program.runId);
    this.hold();
  }

  kill(culprit: ProgramSupervisor | undefined, failure: ProgramFailure): void {
    if (this.gone) return;
    void this.worker.terminate();
    this.ended(COLLATERAL, culprit, failure);
  }

  /** End the worker and every program on it with `failure` (pool shutdown). */
  async close(failure: ProgramFailure): Promise<void> {
    if (!this.gone) this.ended(failure);
    await this.worker.terminate();
  }

  /** Mark the worker gone and end its programs: `culprit` with `failure`, the rest with `others`. */
  private ended(
    others: ProgramFailure,
    culprit?: ProgramSupervisor,
    failure: ProgramFailure = others,
  ): void {
    if (this.gone) return;
    this.gone = true;
    this.onGone(this);
    for (const program of [...this.programs.values()])
      program.lost(program === culprit ? failure : others);
    this.programs.clear();
  }

  /**
   * The worker stopped by itself. Out of memory, the program that was running guest code at
   * that moment is the one that filled it; the others are told to run again.
   */
  private died(code: number): void {
    if (this.gone) return;
    const failure = this.crashFailure(code);
    if ((this.crash as { code?: unknown } | undefined)?.code !== "ERR_WORKER_OUT_OF_MEMORY") {
      this.ended(failure);
      return;
    }
    const culprit = [...this.programs.values()].find((program) => program.inVm);
    const others: ProgramFailure = {
      code: "INTERNAL",
      message:
        "The sandbox's worker ran out of memory while another program ran, and was replaced; run this program again.",
    };
    this.ended(culprit ? others : failure, culprit, {
      code: "MEMORY_LIMIT",
      message:
        "The program filled its sandbox worker's memory, which was replaced; work on less data at a time.",
    });
  }

  /** Why programs end when the worker stopped by itself. */
  private crashFailure(code: number): ProgramFailure {
    const reason = this.crash?.message ?? `exit code ${code}`;
    if (!this.isReady)
      return { code: "INTERNAL", message: `The sandbox could not be loaded: ${reason}` };
    if ((this.crash as { code?: unknown } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY")
      return {
        code: "MEMORY_LIMIT",
        message: "The sandbox's worker ran out of memory and was replaced; run this program again.",
      };
    return {
      code: "INTERNAL",
      message: `The sandbox's worker stopped unexpectedly (${reason}) and was replaced; run this program again.`,
    };
  }

  /** Keep the process alive only while programs run here or someone waits for the start. */
  private hold(): void {
    if (this.gone) return;
    if (this.programs.size + this.holds > 0) this.worker.ref();
    else this.worker.unref();
  }
}
