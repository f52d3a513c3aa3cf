import { performance } from "node:perf_hooks";

// Slots of the shared array: a version (odd while the worker writes), when the current slice
// of guest code began (0 outside one), CPU spent before it, and the stop request.
const VERSION = 0;
const ENTERED = 1;
const SPENT = 2;
const STOP = 3;
const SLOTS = 4;

/** Microseconds since the epoch: both threads read the same clock through their own origins. */
function nowUs(): bigint {
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000));
}

/**
 * One program's CPU time, written by the worker that runs it and read by the agent's thread,
 * through memory both share. The agent's thread needs it because a worker stuck inside one
 * long built-in (QuickJS checks its interrupt handler only between interpreter steps) cannot
 * answer a message: the meter still shows how long the slice has run, and the agent's thread
 * ends the worker when the program's budget and a grace are spent. The other way, the agent's
 * thread raises the stop flag, which the program's interrupt handler reads.
 */
export class CpuMeter {
  private readonly slots: BigInt64Array;

  /** A new meter, or one over a buffer the other thread made. */
  constructor(readonly buffer = new SharedArrayBuffer(SLOTS * 8)) {
    this.slots = new BigInt64Array(buffer);
  }

  /** Worker: a slice of guest code begins, with `spentMs` used before it. */
  enter(spentMs: number): void {
    this.write(nowUs(), spentMs);
  }

  /** Worker: the slice is over; `spentMs` now includes it. */
  leave(spentMs: number): void {
    this.write(0n, spentMs);
  }

  /** Worker: true once the agent's thread asked the program to stop. */
  get stopRequested(): boolean {
    return Atomics.load(this.slots, STOP) !== 0n;
  }

  /** Agent's thread: ask the program to stop at its next interrupt check. */
  requestStop(): void {
    Atomics.store(this.slots, STOP, 1n);
  }

  /** Agent's thread: the CPU time used so far, including a slice still running, and whether one is. */
  read(): { cpuMs: number; inVm: boolean } {
    // A seqlock: read again if the worker wrote in between, so a slice is never counted twice.
    for (;;) {
      const before = Atomics.load(this.slots, VERSION);
      const entered = Atomics.load(this.slots, ENTERED);
      const spent = Atomics.load(this.slots, SPENT);
      if (before % 2n === 1n || Atomics.load(this.slots, VERSION) !== before) continue;
      const running = entered === 0n ? 0n : nowUs() - entered;
      return { cpuMs: Number(spent + (running > 0n ? running : 0n)) / 1000, inVm: entered !== 0n };
    }
  }

  private write(entered: bigint, spentMs: number): void {
    Atomics.add(this.slots, VERSION, 1n);
    Atomics.store(this.slots, ENTERED, entered);
    Atomics.store(this.slots, SPENT, BigInt(Math.round(spentMs * 1000)));
    Atomics.add(this.slots, VERSION, 1n);
  }
}
