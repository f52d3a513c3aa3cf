import { performance } from "node:perf_hooks";
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { CallScheduler, type Delivery } from "./call-scheduler.js";
import { compileFailure, errorText } from "./engine-error.js";
import { classifyGuestFailure, type ProgramFailure } from "./guest-failure.js";
import { type GuestBridge, type GuestConfig, installGuest } from "./guest-setup.js";
import { LogBuffer } from "./log-buffer.js";
import { type Ending, programOutcome } from "./program-outcome.js";
import { PROGRAM_FILE } from "./program-source.js";
import type { ProgramOutcome, SandboxHost } from "./program-types.js";
import type { SandboxLimits } from "./sandbox-limits.js";
import type { ModuleLease } from "./sandbox-module.js";
import { VmGate } from "./vm-gate.js";

/** Everything one run needs, checked and prepared by runProgram. */
export interface RunSettings extends GuestConfig {
  /** The wrapped program (see program-source.ts) and the source its line numbers refer to. */
  code: string;
  source: string;
  host: SandboxHost;
  /** Where the virtual clock starts. */
  nowMs: number;
  limits: SandboxLimits;
  signal: AbortSignal | undefined;
  /** When the run began (performance.now()), for wall time and duration. */
  startedAt: number;
}

/** Jobs per call into the VM: between slices the run checks whether it has ended. */
const JOBS_PER_SLICE = 1000;

/**
 * One program on its own QuickJS runtime and context, on a module it leases. Guest code is
 * entered only through the VM gate. Nothing is disposed from inside a VM callback: ending
 * wakes `run()`, which cleans up once the VM has returned.
 */
export class ProgramRun {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly gate: VmGate;
  private readonly calls: CallScheduler;
  private readonly logs: LogBuffer;
  private bridge: GuestBridge | undefined;
  private ending: Ending | undefined;
  private virtualNow: number;
  private lateCalls = 0;
  private wake: () => void = () => {};
  private readonly finished = new Promise<void>((resolve) => {
    this.wake = resolve;
  });

  constructor(
    private readonly lease: ModuleLease,
    private readonly settings: RunSettings,
  ) {
    const { limits } = settings;
    this.virtualNow = settings.nowMs;
    this.gate = new VmGate(lease, (failure) => this.fail(failure));
    this.logs = new LogBuffer(limits.maxLogBytes);
    this.calls = new CallScheduler(settings.host, limits.maxConcurrentCalls, (delivery) =>
      this.deliver(delivery),
    );
    this.runtime = lease.module.newRuntime();
    this.runtime.setMemoryLimit(limits.memoryBytes);
    this.runtime.setMaxStackSize(limits.stackBytes);
    this.context = this.runtime.newContext();
    lease.onLost(() =>
      this.fail({
        code: "INTERNAL",
        message: "The sandbox was reset after another program crashed it; run this program again.",
      }),
    );
  }

  /** Run the program to its end and release everything it held. */
  async run(): Promise<ProgramOutcome> {
    const { signal } = this.settings;
    const abort = () => this.fail({ code: "ABORTED", message: "The program was cancelled." });
    let timer: NodeJS.Timeout | undefined;
    // Re-armed rather than set once: time spent waiting for a person moves the deadline.
    const armWallClock = () => {
      const left = this.settings.limits.wallMs - this.wallElapsed();
      if (left <= 0) this.fail(this.timeout());
      else timer = setTimeout(armWallClock, Math.ceil(left));
    };
    try {
      this.start();
      if (!this.ending) {
        signal?.addEventListener("abort", abort, { once: true });
        if (signal?.aborted) abort();
        armWallClock();
        await this.finished;
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
    return this.report();
  }

  private start(): void {
    const ctx = this.context;
    const installed = installGuest(ctx, this.gate, this.hostFunctions(), this.settings);
    if (installed === undefined) return;
    if ("code" in installed) {
      this.fail(installed);
      return;
    }
    this.bridge = installed;
    // Limits apply from here on: QuickJS calls this about every 10,000 operations.
    this.runtime.setInterruptHandler(() => this.interrupt());
    const compiled = this.gate.enter(() =>
      ctx.evalCode(this.settings.code, PROGRAM_FILE, { type: "global" }),
    );
    if (!compiled) return;
    if (compiled.error) {
      this.fail(compileFailure(ctx, compiled.error, this.settings.source));
      compiled.error.dispose();
      return;
    }
    const run = installed.run;
    const started = this.gate.enter(() => ctx.callFunction(run, ctx.undefined, compiled.value));
    if (!started) return;
    compiled.value.dispose();
    if (started.error) {
      // `run` catches what the program throws: only a limit or the engine itself gets here.
      if (!this.ending)
        this.fail({
          code: "INTERNAL",
          message: `The program could not start: ${errorText(ctx, started.error)}`,
        });
      started.error.dispose();
    } else started.value.dispose();
    this.pump();
  }

  /** Run guest jobs until none is left, then notice a program that waits for nothing. */
  private pump(): void {
    while (!this.ending && this.runtime.hasPendingJob()) {
      const result = this.gate.enter(() => this.runtime.executePendingJobs(JOBS_PER_SLICE));
      if (!result) return;
      if (result.error) {
        result.error.dispose();
        this.fail({
          code: "INTERNAL",
          message: "A job of the program failed outside any promise.",
        });
      }
    }
    if (!this.ending && this.calls.outstanding === 0)
      this.fail({
        code: "STALLED",
        message:
          "The program is waiting for a promise that can never settle (no tool call is running). Did you forget to resolve a Promise, or to await a call?",
      });
  }

  /** Hand one answer to the program (in call order, see CallScheduler), then run what it wakes. */
  private deliver(delivery: Delivery): void {
    if (this.ending || this.lease.lost || !this.bridge) return;
    if (delivery.atMs > this.virtualNow) this.virtualNow = delivery.atMs;
    const ctx = this.context;
    const payload = ctx.newString(delivery.payload);
    if (ctx.typeof(payload) !== "string") {
      payload.dispose();
      const size = Buffer.byteLength(delivery.payload);
      this.fail({
        code: "MEMORY_LIMIT",
        message: `The answer to call #${delivery.index} (${size} bytes) does not fit in the program's memory.`,
      });
      return;
    }
    const index = ctx.newNumber(delivery.index);
    const { settle } = this.bridge;
    const ok = delivery.ok ? ctx.true : ctx.false;
    const result = this.gate.enter(() =>
      ctx.callFunction(settle, ctx.undefined, index, ok, payload),
    );
    if (!result) return;
    for (const handle of [index, payload, result.error ?? result.value]) handle.dispose();
    this.pump();
  }

  private hostFunctions() {
    const ctx = this.context;
    return {
      call: (name: QuickJSHandle, args: QuickJSHandle) =>
        this.hostCall(ctx.getString(name), ctx.getString(args)),
      log: (level: QuickJSHandle, text: QuickJSHandle) =>
        ctx.newNumber(this.logs.add(ctx.getString(level), ctx.getString(text)) ? 1 : 0),
      done: (ok: QuickJSHandle, json: QuickJSHandle) => {
        this.hostDone(ctx.getNumber(ok) === 1, ctx.getString(json));
        return undefined;
      },
      now: () => ctx.newNumber(this.virtualNow),
    };
  }

  /** The guest asks for a call: an index (a number) or a refusal (JSON `{code, message}`). */
  private hostCall(name: string, argsJson: string): QuickJSHandle {
    const ctx = this.context;
    const refuse = (code: string, message: string) =>
      ctx.newString(JSON.stringify({ code, message }));
    if (this.ending) {
      // Only a program that returned still makes calls on purpose; one being stopped is unwinding.
      if (this.ending.ok) this.lateCalls += 1;
      return refuse("program_finished", "The program has already ended; this call was not made.");
    }
    if (!this.settings.tools.includes(name))
      return refuse("unknown_tool", "No such tool is available to this program.");
    const { maxArgumentBytes, maxCalls } = this.settings.limits;
    const size = Buffer.byteLength(argsJson);
    if (size > maxArgumentBytes)
      return refuse(
        "invalid_arguments",
        `Arguments for ${name} are ${size} bytes of JSON; the limit is ${maxArgumentBytes}. Pass less (an id, a query) instead.`,
      );
    if (this.calls.count >= maxCalls) {
      this.fail({
        code: "CALL_LIMIT",
        message: `The program made more than ${maxCalls} tool calls and was stopped. Batch the work into fewer calls.`,
      });
      return refuse("call_limit", `More than ${maxCalls} tool calls.`);
    }
    return ctx.newNumber(this.calls.add(name, argsJson));
  }

  private hostDone(ok: boolean, json: string): void {
    if (this.ending) return;
    if (!ok) {
      this.fail(classifyGuestFailure(json));
      return;
    }
    const { maxResultBytes } = this.settings.limits;
    const size = Buffer.byteLength(json);
    if (size <= maxResultBytes) this.end({ ok: true, json });
    else
      this.fail({
        code: "OUTPUT_LIMIT",
        message: `The returned value is ${size} bytes of JSON; the limit is ${maxResultBytes}. Return less (summarise, slice, count) instead.`,
      });
  }

  /** Once ending, every further guest instruction is interrupted (uncatchable in the guest). */
  private interrupt(): boolean {
    if (this.ending) return true;
    const { cpuMs, wallMs } = this.settings.limits;
    if (this.gate.cpuMs > cpuMs)
      this.fail({
        code: "CPU_LIMIT",
        message: `The program used more than ${cpuMs} ms of CPU time and was stopped (an endless loop?).`,
      });
    else if (this.wallElapsed() > wallMs) this.fail(this.timeout());
    return this.ending !== undefined;
  }

  private wallElapsed(): number {
    let paused = 0;
    try {
      paused = this.settings.host.pausedMs?.() ?? 0;
    } catch {
      paused = 0;
    }
    const elapsed = performance.now() - this.settings.startedAt;
    return elapsed - (Number.isFinite(paused) && paused > 0 ? paused : 0);
  }

  private timeout(): ProgramFailure {
    const waiting = this.calls.outstanding;
    const calls = waiting > 0 ? ` while ${waiting} tool call(s) had not answered` : "";
    return {
      code: "TIMEOUT",
      message: `The program ran longer than ${this.settings.limits.wallMs} ms${calls} and was stopped.`,
    };
  }

  private end(ending: Ending): void {
    if (this.ending) return;
    this.ending = ending;
    this.calls.halt();
    this.wake();
  }

  private fail(failure: ProgramFailure): void {
    this.end({ ok: false, ...failure });
  }

  private report(): ProgramOutcome {
    const ending = this.ending ?? {
      ok: false,
      code: "INTERNAL",
      message: "The program never ended.",
    };
    const unfinished = this.calls.close(new Error("The code-mode program ended."));
    const warnings = this.dispose();
    return programOutcome(ending, {
      unfinished,
      lateCalls: this.lateCalls,
      logs: this.logs.text,
      logsCutAt: this.logs.truncated ? this.settings.limits.maxLogBytes : undefined,
      calls: this.calls.count,
      durationMs: performance.now() - this.settings.startedAt,
      warnings,
    });
  }

  /** Free the runtime; a module that was lost is left to the garbage collector untouched. */
  private dispose(): string[] {
    this.lease.release();
    if (this.lease.lost) return [];
    try {
      this.bridge?.run.dispose();
      this.bridge?.settle.dispose();
      this.context.dispose();
      this.runtime.dispose();
      return [];
    } catch (error) {
      this.lease.poison();
      const message = error instanceof Error ? error.message : String(error);
      return [`The sandbox could not be released cleanly (${message}); it was replaced.`];
    }
  }
}
