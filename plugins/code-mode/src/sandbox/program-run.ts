import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import type { CpuMeter } from "./cpu-meter.js";
import { compileFailure, errorText } from "./engine-error.js";
import { classifyGuestFailure, type ProgramFailure } from "./guest-failure.js";
import { type GuestBridge, installGuest } from "./guest-setup.js";
import { LogBuffer } from "./log-buffer.js";
import { PROGRAM_FILE } from "./program-source.js";
import type { ModuleLease } from "./sandbox-module.js";
import { VmGate } from "./vm-gate.js";
import {
  type Delivery,
  type DoneMessage,
  type Ending,
  type FromWorker,
  MAX_BRIDGE_CHARS,
  type StartMessage,
} from "./worker-protocol.js";

/** What a run ended with and counted, for its `done` message. */
export type RunReport = Omit<DoneMessage, "type" | "runId" | "stats">;

/** Jobs per call into the VM: between slices the run checks whether it has ended. */
const JOBS_PER_SLICE = 1000;

/**
 * One program on its own QuickJS runtime and context, inside a sandbox worker, on a module it
 * leases. It is driven by the worker's messages (start, answer, abort) and reports through
 * `output` (calls, kept log lines); every method returns once the VM is idle, and `ended` then
 * says whether `report()` is due. Guest code is entered only through the VM gate. Nothing is
 * disposed from inside a VM callback: `report()` cleans up once the VM has returned.
 *
 * The run owns what must be answered synchronously inside the guest: the call count and its
 * limit, argument size, the log budget, the CPU budget (its interrupt handler). Wall time,
 * cancellation and the calls themselves belong to the agent's thread.
 */
export class ProgramRun {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly gate: VmGate;
  private readonly logs: LogBuffer;
  private bridge: GuestBridge | undefined;
  private ending: Ending | undefined;
  private virtualNow: number;
  private callsMade = 0;
  private delivered = 0;
  private lateCalls = 0;

  constructor(
    private readonly lease: ModuleLease,
    private readonly settings: StartMessage,
    private readonly meter: CpuMeter,
    private readonly output: (message: FromWorker) => void,
  ) {
    const { limits, runId } = settings;
    this.virtualNow = settings.nowMs;
    this.gate = new VmGate(lease, meter, (failure) => this.fail(failure));
    this.logs = new LogBuffer(limits.maxLogBytes, (line) => output({ type: "log", runId, line }));
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

  /** True once the program has ended: call `report()`. */
  get ended(): boolean {
    return this.ending !== undefined;
  }

  /** Install the guest, compile and start the program, and run it until it waits. */
  start(): void {
    const ctx = this.context;
    const installed = installGuest(ctx, this.gate, this.hostFunctions(), {
      ...this.settings,
      maxLogBytes: this.settings.limits.maxLogBytes,
    });
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

  /** Hand one answer to the program (they arrive in call order), then run what it wakes. */
  deliver(delivery: Delivery): void {
    if (this.ending || this.lease.lost || !this.bridge) return;
    this.delivered += 1;
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

  /**
   * The agent's thread stopped the program (wall time, cancellation) and reports why itself;
   * this only ends it.
   */
  stop(): void {
    this.fail({ code: "ABORTED", message: "The program was stopped by its host." });
  }

  /** Release everything the run held and say how it ended. Call once `ended` is true. */
  report(): RunReport {
    const ending = this.ending ?? {
      ok: false,
      code: "INTERNAL",
      message: "The program never ended.",
    };
    return {
      ending,
      calls: this.callsMade,
      lateCalls: this.lateCalls,
      logsCut: this.logs.truncated,
      warnings: this.dispose(),
    };
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
    if (!this.ending && this.callsMade === this.delivered)
      this.fail({
        code: "STALLED",
        message:
          "The program is waiting for a promise that can never settle (no tool call is running). Did you forget to resolve a Promise, or to await a call?",
      });
  }

  private hostFunctions() {
    const ctx = this.context;
    return {
      call: (name: QuickJSHandle, args: QuickJSHandle) => this.hostCall(ctx.getString(name), args),
      log: (level: QuickJSHandle, text: QuickJSHandle) =>
        ctx.newNumber(this.logs.add(ctx.getString(level), ctx.getString(text)) ? 1 : 0),
      done: (ok: QuickJSHandle, json: QuickJSHandle) => {
        this.hostDone(ctx.getNumber(ok) === 1, json);
        return undefined;
      },
      now: () => ctx.newNumber(this.virtualNow),
    };
  }

  /** The guest asks for a call: an index (a number) or a refusal (JSON `{code, message}`). */
  private hostCall(name: string, args: QuickJSHandle): QuickJSHandle {
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
    const argsJson = this.readString(args);
    const size = typeof argsJson === "string" ? Buffer.byteLength(argsJson) : argsJson;
    if (typeof argsJson !== "string" || size > maxArgumentBytes)
      return refuse(
        "invalid_arguments",
        `Arguments for ${name} are ${typeof argsJson === "string" ? "" : "more than "}${size} bytes of JSON; the limit is ${maxArgumentBytes}. Pass less (an id, a query) instead.`,
      );
    if (this.callsMade >= maxCalls) {
      this.fail({
        code: "CALL_LIMIT",
        message: `The program made more than ${maxCalls} tool calls and was stopped. Batch the work into fewer calls.`,
      });
      return refuse("call_limit", `More than ${maxCalls} tool calls.`);
    }
    const index = this.callsMade++;
    this.output({ type: "call", runId: this.settings.runId, index, name, argsJson });
    return ctx.newNumber(index);
  }

  private hostDone(ok: boolean, json: QuickJSHandle): void {
    if (this.ending) return;
    const text = this.readString(json);
    if (!ok) {
      this.fail(
        typeof text === "string"
          ? classifyGuestFailure(text)
          : {
              code: "INTERNAL",
              message: "The program failed and its error was too large to read.",
            },
      );
      return;
    }
    const { maxResultBytes } = this.settings.limits;
    const size = typeof text === "string" ? Buffer.byteLength(text) : text;
    if (typeof text === "string" && size <= maxResultBytes) this.end({ ok: true, json: text });
    else
      this.fail({
        code: "OUTPUT_LIMIT",
        message: `The returned value is ${typeof text === "string" ? "" : "more than "}${size} bytes of JSON; the limit is ${maxResultBytes}. Return less (summarise, slice, count) instead.`,
      });
  }

  /** A guest string, or (when longer than the bridge carries) the bound it is over. */
  private readString(handle: QuickJSHandle): string | number {
    const ctx = this.context;
    if (ctx.typeof(handle) !== "string") return ctx.getString(handle);
    const length = ctx.getProp(handle, "length");
    const chars = ctx.typeof(length) === "number" ? ctx.getNumber(length) : 0;
    length.dispose();
    return chars > MAX_BRIDGE_CHARS ? MAX_BRIDGE_CHARS : ctx.getString(handle);
  }

  /** Once ending, every further guest instruction is interrupted (uncatchable in the guest). */
  private interrupt(): boolean {
    if (this.ending) return true;
    if (this.meter.stopRequested) this.stop();
    else if (this.gate.cpuMs > this.settings.limits.cpuMs)
      this.fail({
        code: "CPU_LIMIT",
        message: `The program used more than ${this.settings.limits.cpuMs} ms of CPU time and was stopped (an endless loop?).`,
      });
    return this.ending !== undefined;
  }

  private end(ending: Ending): void {
    if (!this.ending) this.ending = ending;
  }

  private fail(failure: ProgramFailure): void {
    this.end({ ok: false, ...failure });
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
