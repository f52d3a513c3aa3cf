import { performance } from "node:perf_hooks";
import { CallScheduler } from "./call-scheduler.js";
import { CpuMeter } from "./cpu-meter.js";
import type { ProgramFailure } from "./guest-failure.js";
import { programOutcome } from "./program-outcome.js";
import type { ProgramOutcome, SandboxHost } from "./program-types.js";
import {
  type Delivery,
  type DoneMessage,
  type Ending,
  type FromWorker,
  MAX_BRIDGE_CHARS,
  type StartMessage,
  type ToWorker,
} from "./worker-protocol.js";

/** What a supervisor needs of the worker its program runs on. */
export interface ProgramWorker {
  send(message: ToWorker): void;
  /** End the worker now: `culprit` ends with `failure`, its other programs as collateral. */
  kill(culprit: ProgramSupervisor, failure: ProgramFailure): void;
  /** True while another program on the worker is running guest code (the worker is busy). */
  busyWithOther(program: ProgramSupervisor): boolean;
  /** The program has ended: the worker forgets it. */
  release(program: ProgramSupervisor): void;
}

/** One program as runProgram prepared it: what the worker gets, and what stays here. */
export interface SupervisedProgram {
  start: Omit<StartMessage, "type" | "runId" | "meter">;
  host: SandboxHost;
  signal: AbortSignal | undefined;
  /** When the run began (performance.now()), for wall time and duration. */
  startedAt: number;
}

/** How long a program that was told to stop may take to do so before its worker is ended. */
const STOP_GRACE_MS = 250;

/** CPU time past the budget before the worker is ended: the interrupt handler had its chance. */
function hardCpuLimitMs(cpuMs: number): number {
  return cpuMs + Math.max(250, cpuMs / 4);
}

/**
 * The agent's side of one program running in a worker. The worker owns what the guest needs
 * answered synchronously (call count, argument size, log budget, the CPU budget through the
 * interrupt handler). This side owns everything that involves the host or can outlast a stuck
 * worker: the inner calls (scheduled, started, aborted and delivered in call order here), wall
 * time less the host's `pausedMs`, the caller's signal, and the hard deadline. When it decides
 * the ending (TIMEOUT, ABORTED, an answer too large), its failure wins over what the worker
 * reports; a worker that does not stop within a grace, or spends more CPU than
 * `hardCpuLimitMs`, is ended outright.
 */
export class ProgramSupervisor {
  readonly meter = new CpuMeter();
  readonly finished: Promise<ProgramOutcome>;
  private readonly calls: CallScheduler;
  private readonly lines: string[] = [];
  private hostFailure: ProgramFailure | undefined;
  private settled = false;
  private resolve: (outcome: ProgramOutcome) => void = () => {};
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly onAbort = () =>
    this.stop({ code: "ABORTED", message: "The program was cancelled." });

  constructor(
    readonly runId: number,
    private readonly program: SupervisedProgram,
    private readonly worker: ProgramWorker,
  ) {
    this.finished = new Promise((resolve) => {
      this.resolve = resolve;
    });
    this.calls = new CallScheduler(
      program.host,
      program.start.limits.maxConcurrentCalls,
      (delivery) => this.deliver(delivery),
    );
  }

  /** Send the program to its worker and start the clocks. */
  begin(): void {
    const { start, signal } = this.program;
    this.worker.send({ type: "start", runId: this.runId, meter: this.meter.buffer, ...start });
    signal?.addEventListener("abort", this.onAbort, { once: true });
    if (signal?.aborted) this.onAbort();
    this.armWallClock();
    this.checkCpu();
  }

  /** A message of this program's from the worker. */
  receive(message: FromWorker): void {
    if (this.settled) return;
    if (message.type === "call") this.calls.add(message.name, message.argsJson);
    else if (message.type === "log") this.lines.push(message.line);
    else if (message.type === "done") this.finish(message);
  }

  /** The worker is gone: end with `failure`, unless this side had already decided the ending. */
  lost(failure: ProgramFailure): void {
    this.finish({
      ending: { ok: false, ...failure },
      calls: this.calls.count,
      lateCalls: 0,
      logsCut: false,
      warnings: [],
    });
  }

  /** Whether this program is running guest code right now. */
  get inVm(): boolean {
    return this.meter.read().inVm;
  }

  /** Stop the program for a reason of this side's; the worker ends it, or is ended. */
  private stop(failure: ProgramFailure): void {
    if (this.settled || this.hostFailure) return;
    this.hostFailure = failure;
    this.calls.halt();
    this.meter.requestStop();
    this.worker.send({ type: "abort", runId: this.runId });
    const waitForStop = () => {
      if (this.settled) return;
      // Another program holding the worker has a deadline of its own: wait for the worker.
      if (!this.inVm && this.worker.busyWithOther(this)) this.after(STOP_GRACE_MS, waitForStop);
      else this.worker.kill(this, failure);
    };
    this.after(STOP_GRACE_MS, waitForStop);
  }

  /** Re-armed rather than set once: time spent waiting for a person moves the deadline. */
  private armWallClock(): void {
    const left = this.program.start.limits.wallMs - this.wallElapsed();
    if (left <= 0) this.stop(this.timeout());
    else this.after(Math.ceil(left), () => this.armWallClock(), true);
  }

  /**
   * The hard deadline, read from the meter. CPU time grows at most as fast as the clock, so the
   * next look is due when the budget left has passed, not sooner.
   */
  private checkCpu(): void {
    const { cpuMs } = this.program.start.limits;
    const limit = hardCpuLimitMs(cpuMs);
    const used = this.meter.read().cpuMs;
    if (used <= limit) {
      this.after(Math.max(limit - used, 5), () => this.checkCpu());
      return;
    }
    this.worker.kill(this, {
      code: "CPU_LIMIT",
      message: `The program used more than ${cpuMs} ms of CPU time and was stopped by force (one built-in call ran on: a search or copy over a very large string or array, in a loop?).`,
    });
  }

  /** Hand an answer to the worker, unless no program could take it. */
  private deliver(delivery: Delivery): void {
    if (this.settled || this.hostFailure) return;
    const { memoryBytes } = this.program.start.limits;
    const chars = delivery.payload.length;
    if (chars > memoryBytes) {
      // Each character is at least a byte inside QuickJS: it cannot fit, don't copy it over.
      const size = Buffer.byteLength(delivery.payload);
      this.stop({
        code: "MEMORY_LIMIT",
        message: `The answer to call #${delivery.index} (${size} bytes) does not fit in the program's memory.`,
      });
      return;
    }
    const answer: Delivery =
      chars <= MAX_BRIDGE_CHARS
        ? delivery
        : {
            ...delivery,
            ok: false,
            payload: JSON.stringify({
              code: "tool_error",
              message: `The answer is ${Buffer.byteLength(delivery.payload)} bytes of JSON; a program accepts at most ${MAX_BRIDGE_CHARS}. Ask the tool for less.`,
            }),
          };
    this.worker.send({ type: "answer", runId: this.runId, answer });
  }

  private finish(done: Omit<DoneMessage, "type" | "runId" | "stats">): void {
    if (this.settled) return;
    this.settled = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.program.signal?.removeEventListener("abort", this.onAbort);
    this.worker.release(this);
    const ending: Ending = this.hostFailure ? { ok: false, ...this.hostFailure } : done.ending;
    const { maxLogBytes } = this.program.start.limits;
    this.resolve(
      programOutcome(ending, {
        unfinished: this.calls.close(new Error("The code-mode program ended.")),
        lateCalls: done.lateCalls,
        logs: this.lines.join("\n"),
        logsCutAt: done.logsCut ? maxLogBytes : undefined,
        calls: done.calls,
        durationMs: performance.now() - this.program.startedAt,
        warnings: done.warnings,
      }),
    );
  }

  private wallElapsed(): number {
    let paused = 0;
    try {
      paused = this.program.host.pausedMs?.() ?? 0;
    } catch {
      paused = 0;
    }
    const elapsed = performance.now() - this.program.startedAt;
    return elapsed - (Number.isFinite(paused) && paused > 0 ? paused : 0);
  }

  private timeout(): ProgramFailure {
    const waiting = this.calls.outstanding;
    const calls = waiting > 0 ? ` while ${waiting} tool call(s) had not answered` : "";
    return {
      code: "TIMEOUT",
      message: `The program ran longer than ${this.program.start.limits.wallMs} ms${calls} and was stopped.`,
    };
  }

  /**
   * A timer that ends with the program. Only the wall clock keeps the process alive: the worker
   * itself is held while it runs programs, and the deadlines are about the worker.
   */
  private after(ms: number, body: () => void, keepsAlive = false): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.settled) body();
    }, ms);
    if (!keepsAlive) timer.unref();
    this.timers.add(timer);
  }
}
