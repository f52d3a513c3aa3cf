/**
 * When the next reconnect may be tried: after each failure the wait doubles, from `initialMs`
 * up to `maxMs`, so a dead server is not dialled on every call; a success resets it.
 */
export class ReconnectBackoff {
  private delayMs = 0;
  private retryAt = 0;

  constructor(private readonly limits: { initialMs: number; maxMs: number }) {}

  /** Milliseconds until the next attempt is allowed; zero or less when one may go now. */
  waitMs(now = Date.now()): number {
    return this.retryAt - now;
  }

  /** An attempt failed: wait longer before the next. */
  failed(now = Date.now()): void {
    const { initialMs, maxMs } = this.limits;
    this.delayMs = Math.min(maxMs, this.delayMs === 0 ? initialMs : this.delayMs * 2);
    this.retryAt = now + this.delayMs;
  }

  /** An attempt succeeded: the next failure starts from `initialMs` again. */
  succeeded(): void {
    this.delayMs = 0;
    this.retryAt = 0;
  }
}
