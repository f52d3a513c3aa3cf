import { ConfigError } from "../errors.js";

/**
 * How many tool calls run at once, agent-wide. A call over the limit waits, first come first
 * served, for a running one to end; one whose caller aborts while waiting leaves the queue. A
 * slot is taken without a promise when one is free, so a call under the limit pays nothing.
 */
export class CallLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new ConfigError(
        "config_invalid",
        `The agent's maxConcurrentCalls must be a whole number of 1 or more, got ${String(limit)}.`,
      );
  }

  /** Take a slot if one is free. */
  tryAcquire(): boolean {
    if (this.running >= this.limit) return false;
    this.running++;
    return true;
  }

  /** Wait for a slot: true once it is this call's, false if `signal` aborted first. */
  wait(signal: AbortSignal | undefined): Promise<boolean> {
    return new Promise((resolve) => {
      const take = () => {
        signal?.removeEventListener("abort", leave);
        this.running++;
        resolve(true);
      };
      const leave = () => {
        const index = this.waiting.indexOf(take);
        if (index >= 0) this.waiting.splice(index, 1);
        resolve(false);
      };
      if (signal?.aborted) return resolve(false);
      signal?.addEventListener("abort", leave, { once: true });
      this.waiting.push(take);
    });
  }

  /** A running call ended: the longest-waiting call gets its slot. */
  release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}
