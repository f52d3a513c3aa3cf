/**
 * Re-lists after `notifications/tools/list_changed`, debounced so a burst of notifications
 * costs one listing, and one listing at a time: a notification during a listing schedules
 * another after it.
 */
export class ListChangedFollower {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly debounceMs: number,
    private readonly relist: () => Promise<void>,
  ) {}

  /** A list_changed arrived. */
  schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = (this.running ?? Promise.resolve()).then(() => this.relist());
    }, this.debounceMs);
  }

  /** No more re-listing (the connection closed). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
