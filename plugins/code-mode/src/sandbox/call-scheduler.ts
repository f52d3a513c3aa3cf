import type { CallAnswer, SandboxHost } from "./program-types.js";
import type { Delivery } from "./worker-protocol.js";

interface ScheduledCall {
  readonly index: number;
  readonly name: string;
  readonly argsJson: string;
  readonly controller: AbortController;
  answer?: Delivery;
}

/**
 * The host side of a program's inner calls, on the agent's thread. Calls start in the order they
 * were made, at most `maxConcurrent` at a time, always from a fresh task. Answers are DELIVERED in the order the calls were made: one that
 * arrives early waits until every earlier call has been delivered. What a program sees then
 * depends only on the answers, never on their timing, and a replay that answers at once from a
 * record takes the same path (`Promise.race` settles with the first-made finished call).
 */
export class CallScheduler {
  private readonly calls: ScheduledCall[] = [];
  private nextStart = 0;
  private nextDelivery = 0;
  private running = 0;
  private startQueued = false;
  private halted = false;
  private closed = false;

  constructor(
    private readonly host: SandboxHost,
    private readonly maxConcurrent: number,
    private readonly deliver: (delivery: Delivery) => void,
  ) {}

  /** Calls made so far (each got an index). */
  get count(): number {
    return this.calls.length;
  }

  /** Calls made whose answer the program has not received yet. */
  get outstanding(): number {
    return this.calls.length - this.nextDelivery;
  }

  /**
   * Record a call; it starts from a microtask, so an ending that arrives in the same batch from
   * the worker halts it first (a call made in the program's last turn never starts). Returns
   * its index.
   */
  add(name: string, argsJson: string): number {
    const index = this.calls.length;
    this.calls.push({ index, name, argsJson, controller: new AbortController() });
    if (!this.startQueued) {
      this.startQueued = true;
      queueMicrotask(() => this.startWaiting());
    }
    return index;
  }

  /** Start no more calls: the program has ended (safe inside a VM callback: aborts nothing). */
  halt(): void {
    this.halted = true;
  }

  /**
   * Stop: abort the calls still running (their AbortSignal fires) and drop those not started.
   * Returns how many calls had not finished.
   */
  close(reason: Error): number {
    if (this.closed) return 0;
    this.closed = true;
    this.halted = true;
    const unfinished = this.calls.filter((call, index) => !call.answer && index < this.nextStart);
    for (const call of unfinished) call.controller.abort(reason);
    return unfinished.length + (this.calls.length - this.nextStart);
  }

  private startWaiting(): void {
    this.startQueued = false;
    while (
      !this.halted &&
      this.running < this.maxConcurrent &&
      this.nextStart < this.calls.length
    ) {
      const call = this.calls[this.nextStart++] as ScheduledCall;
      this.start(call);
    }
  }

  private start(call: ScheduledCall): void {
    this.running += 1;
    let answered: Promise<CallAnswer>;
    try {
      const args: unknown = JSON.parse(call.argsJson);
      answered = Promise.resolve(
        this.host.call(call.index, call.name, args, call.controller.signal),
      );
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered
      .then(
        (answer) => deliveryOf(call.index, answer),
        (error: unknown) =>
          failure(
            call.index,
            "tool_error",
            `The host failed to run the call: ${messageOf(error)}`,
            NaN,
          ),
      )
      .then((delivery) => this.answered(call, delivery));
  }

  private answered(call: ScheduledCall, delivery: Delivery): void {
    this.running -= 1;
    if (this.closed) return;
    call.answer = delivery;
    this.startWaiting();
    while (!this.closed) {
      const next = this.calls[this.nextDelivery];
      if (next?.answer === undefined) return;
      this.nextDelivery += 1;
      this.deliver(next.answer);
    }
  }
}

/** The JSON the guest receives for a host's answer; an answer that is not one becomes a failure. */
function deliveryOf(index: number, answer: CallAnswer): Delivery {
  const atMs = typeof answer?.atMs === "number" ? answer.atMs : NaN;
  if (answer?.ok === true) {
    try {
      return { index, ok: true, payload: JSON.stringify(answer.value ?? null) ?? "null", atMs };
    } catch (error) {
      const message = `The tool's answer cannot be converted to JSON: ${messageOf(error)}`;
      return failure(index, "tool_error", message, atMs);
    }
  }
  if (answer?.ok === false)
    return failure(index, String(answer.code), String(answer.message), atMs);
  return failure(
    index,
    "tool_error",
    "The host answered with something that is not an answer.",
    atMs,
  );
}

function failure(index: number, code: string, message: string, atMs: number): Delivery {
  return { index, ok: false, payload: JSON.stringify({ code, message }), atMs };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
