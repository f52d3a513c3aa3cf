import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolResult } from "../contracts/tool-result.js";
import { CallAbortReason } from "../util/abort.js";
import type { CallCancellation } from "./call-cancellation.js";

/**
 * One running call's deadline and its caller's abort: whichever comes first aborts the call's
 * cancellation, and the tool then has a short grace to finish with its own, more precise
 * result before `abortedResult` answers for it. One object and one promise a call, with its
 * timers calling module functions: a race of promises and a closure per outcome were a large
 * part of what each call allocated.
 */
export class TimedCall {
  /** The tool's result, or the aborted answer once the grace has passed. */
  readonly result: Promise<ToolResult>;
  private resolve!: (result: ToolResult) => void;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  /** Set once the call became a long-running task: the call's timeout no longer applies. */
  private tasked = false;
  private graceTimer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort: (() => void) | undefined;

  constructor(
    readonly cancellation: CallCancellation,
    readonly call: ToolCall,
    readonly timeoutMs: number,
    private readonly graceMs: number,
    private readonly signal: AbortSignal | undefined,
    /** The answer for a call aborted past its grace: one function for every call. */
    private readonly abortedResult: (
      call: ToolCall,
      reason: CallAbortReason | undefined,
    ) => ToolResult,
  ) {
    this.result = new Promise((resolve) => {
      this.resolve = resolve;
    });
    this.timer = setTimeout(timedOut, timeoutMs, this);
    if (signal) {
      this.onCallerAbort = () =>
        this.abort(new CallAbortReason("cancelled", `Call to "${call.name}" was cancelled.`));
      signal.addEventListener("abort", this.onCallerAbort, { once: true });
    }
  }

  /** The tool answered: its result wins, unless the grace after an abort already ran out. */
  finish(result: ToolResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    if (this.onCallerAbort) this.signal?.removeEventListener("abort", this.onCallerAbort);
    this.resolve(result);
  }

  /**
   * The call became a long-running task: its timeout stops (each request for the task keeps
   * it), and `taskTimeoutMs`, when given, bounds the task from now on. Once per call.
   */
  becomeTask(taskTimeoutMs: number | undefined): void {
    if (this.tasked || this.settled) return;
    this.tasked = true;
    clearTimeout(this.timer);
    this.timer =
      taskTimeoutMs !== undefined && taskTimeoutMs > 0
        ? setTimeout(taskTimedOut, taskTimeoutMs, this, taskTimeoutMs)
        : undefined;
  }

  /** The first abort wins; the tool is told at once and given the grace to answer. */
  abort(reason: CallAbortReason): void {
    if (this.cancellation.aborted || this.settled) return;
    this.cancellation.abort(reason);
    this.graceTimer = setTimeout(graceOver, this.graceMs, this);
  }

  /** The grace ran out: answer for the tool. */
  expire(): void {
    this.finish(this.abortedResult(this.call, this.cancellation.reason));
  }
}

function timedOut(call: TimedCall): void {
  call.abort(
    new CallAbortReason(
      "timeout",
      `Call to "${call.call.name}" timed out after ${call.timeoutMs} ms.`,
    ),
  );
}

function taskTimedOut(call: TimedCall, taskTimeoutMs: number): void {
  call.abort(
    new CallAbortReason(
      "timeout",
      `The task of "${call.call.name}" timed out after ${taskTimeoutMs} ms (its task_timeout_ms).`,
    ),
  );
}

function graceOver(call: TimedCall): void {
  call.expire();
}
