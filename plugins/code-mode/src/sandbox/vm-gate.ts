import { performance } from "node:perf_hooks";
import type { CpuMeter } from "./cpu-meter.js";
import type { ProgramFailure } from "./guest-failure.js";
import type { ModuleLease } from "./sandbox-module.js";

/** Node's WebAssembly global, which the ES library typings do not declare. */
const WasmRuntimeError = (
  globalThis as unknown as { WebAssembly: { RuntimeError: new () => Error } }
).WebAssembly.RuntimeError;

/**
 * The one door into a program's guest code. It sums the time spent inside (the CPU budget
 * counts VM time only, not time waiting for tools; the meter shows it to the agent's thread,
 * which ends a worker stuck in one slice) and catches the host-level failures that
 * leave the shared module in an unknown state: a RangeError (the WebAssembly frames overflowed
 * Node's own stack before QuickJS's check) or a WebAssembly.RuntimeError (the module aborted).
 * Either poisons the module for every program on it, and `enter` answers undefined: the
 * caller must touch nothing more.
 */
export class VmGate {
  private spentMs = 0;
  private enteredAt = 0;

  constructor(
    private readonly lease: ModuleLease,
    private readonly meter: CpuMeter,
    private readonly fail: (failure: ProgramFailure) => void,
  ) {}

  /** True once the module was discarded: no handle of it may be used, not even to dispose. */
  get lost(): boolean {
    return this.lease.lost;
  }

  /** CPU time used so far, including the slice running now. */
  get cpuMs(): number {
    return this.spentMs + (this.enteredAt === 0 ? 0 : performance.now() - this.enteredAt);
  }

  /** Run `body` in the VM; undefined when the module is (or just became) unusable. */
  enter<T>(body: () => T): T | undefined {
    if (this.lease.lost) return undefined;
    this.enteredAt = performance.now();
    this.meter.enter(this.spentMs);
    try {
      return body();
    } catch (error) {
      if (!(error instanceof RangeError || error instanceof WasmRuntimeError)) throw error;
      this.lease.poison();
      this.fail(
        error instanceof RangeError
          ? {
              code: "STACK_OVERFLOW",
              message:
                "Maximum call stack size exceeded: the program nests too deeply (recursion, or a deeply nested value).",
            }
          : { code: "INTERNAL", message: `The sandbox aborted: ${error.message}` },
      );
      return undefined;
    } finally {
      this.spentMs += performance.now() - this.enteredAt;
      this.enteredAt = 0;
      this.meter.leave(this.spentMs);
    }
  }
}
