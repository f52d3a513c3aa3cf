/**
 * Re-lists after `notifications/tools/list_changed`, debounced so a burst of notifications
 * costs one listing, and one listing at a time: a notification during a listing schedules
 * another after it. `whenSettled` is how a caller waits for what it heard of to be listed.
 */
export class ListChangedFollower {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** From a notification until the listing it asked for is done. */
  private settled: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(
    private readonly debounceMs: number,
    private readonly relist: () => Promise<void>,
  ) {}

  /** A list_changed arrived. */
  schedule(): void {
    if (this.stopped) return;
    if (!this.settled) {
      let resolve = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.settled = { promise, resolve };
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const run = (this.running ?? Promise.resolve()).then(() => this.relist());
      this.running = run;
      void run.finally(() => {
        // Settled once the last listing asked for is done and no other is waiting to start.
        if (this.running === run && this.timer === undefined) this.settle();
      });
    }, this.debounceMs);
  }

  /** Undefined when nothing heard of is waiting to be listed; else when it has been. */
  whenSettled(): Promise<void> | undefined {
    return this.settled?.promise;
  }

  /** No more re-listing (the connection closed). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.settle();
  }

  private settle(): void {
    const settled = this.settled;
    this.settled = undefined;
    settled?.resolve();
  }
}
