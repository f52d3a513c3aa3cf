import type { ToolCall } from "../contracts/tool-call.js";
import { type ToolResult, toolFailure } from "../contracts/tool-result.js";
import type { CallAbortReason } from "../util/abort.js";
import type { Disposable } from "../util/disposable.js";

/**
 * One call's cancellation: aborted once, on its timeout or by its caller. The AbortSignal is
 * made only when something reads it: on Node 20 creating one costs about 5 µs (10 with a
 * listener), more than the rest of a call's bookkeeping together, and a tool that needs only
 * to hear of the abort (`onAbort`) never needs one.
 */
export class CallCancellation {
  private controller: AbortController | undefined;
  private listeners: Array<(reason: CallAbortReason) => void> | undefined;
  private abortReason: CallAbortReason | undefined;

  get aborted(): boolean {
    return this.abortReason !== undefined;
  }

  get reason(): CallAbortReason | undefined {
    return this.abortReason;
  }

  /** The call's signal, made on first read (already aborted if the call was). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /**
   * Run `listener` when the call is aborted (at once, if it already was). Disposing removes
   * it; a call that ends without an abort drops its listeners with it.
   */
  onAbort(listener: (reason: CallAbortReason) => void): Disposable {
    if (this.abortReason) {
      listener(this.abortReason);
      return { dispose() {} };
    }
    this.listeners ??= [];
    const listeners = this.listeners;
    listeners.push(listener);
    return {
      dispose() {
        const at = listeners.indexOf(listener);
        if (at !== -1) listeners.splice(at, 1);
      },
    };
  }

  /** The first abort wins; later ones do nothing. */
  abort(reason: CallAbortReason): void {
    if (this.abortReason) return;
    this.abortReason = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) {
      try {
        listener(reason);
      } catch (error) {
        // One tool's broken listener must not keep the others from hearing of the abort.
        process.emitWarning(`A tool's abort listener threw: ${String(error)}`);
      }
    }
  }
}

/** The answer for a call its timeout or caller aborted, when the tool gave none of its own. */
export function abortedResult(call: ToolCall, reason: CallAbortReason | undefined): ToolResult {
  const kind = reason?.kind ?? "cancelled";
  const message = reason?.message ?? `Call to "${call.name}" was ${kind}.`;
  return toolFailure(kind === "timeout" ? "timeout" : "cancelled", message);
}
