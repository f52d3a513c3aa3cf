import type { TextSink } from "../cli-io.js";

/** How often the elapsed time is redrawn: once a second reads as a clock, not as flicker. */
const TICK_MS = 1_000;

/** Erase the current terminal line and go back to its start. */
const CLEAR_LINE = "\r\x1b[2K";

interface Running {
  name: string;
  began: number;
}

/**
 * The line at the bottom of a terminal chat that says which tools are running and for how
 * long (`… running run_command · 3s`), redrawn in place every second so a long command never
 * looks like a hang. Only on a terminal (a pipe would get a line per second), and never while a
 * question waits for an answer (redrawing would land on the question's line). Everything else
 * the chat prints calls `hide` first and `show` after, so the line stays the last one.
 */
export class RunningToolsLine {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | undefined;
  private drawn = false;

  constructor(
    private readonly out: TextSink,
    /** True while the chat waits for an answer at its prompt (an approval, a question). */
    private readonly asking: () => boolean = () => false,
  ) {}

  /** A call started running; the first draw is after a tick, so quick calls never show it. */
  start(id: string, name: string): void {
    if (!this.out.isTTY) return;
    this.running.set(id, { name, began: performance.now() });
    // Unref'd: a line on the screen must never keep the process alive.
    this.timer ??= setInterval(() => this.show(), TICK_MS).unref();
  }

  /** A call ended: it leaves the line; the line goes when nothing runs any more. */
  end(id: string): void {
    if (!this.running.delete(id) || this.running.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.hide();
  }

  /** Erase the line (before other output takes its place). */
  hide(): void {
    if (!this.drawn) return;
    this.drawn = false;
    // The prompt of a question may have replaced it already: then there is nothing to erase.
    if (!this.asking()) this.out.write(CLEAR_LINE);
  }

  /** Draw the line again with the current times, if anything runs and nobody is asked. */
  show(): void {
    if (this.running.size === 0 || this.asking()) return;
    const now = performance.now();
    const parts = [...this.running.values()].map(
      // Rounded: the ticks come a second apart from the start, give or take a timer's jitter
      // (999.8 ms must read 1s, not 0s).
      ({ name, began }) => `${name} · ${Math.round((now - began) / 1000)}s`,
    );
    // No newline: the next draw, or the next line of output, starts by erasing this one.
    this.out.write(`${CLEAR_LINE}  … running ${parts.join(", ")}`);
    this.drawn = true;
  }

  /** Forget every call and stop the clock (a run or the chat ended); `start` begins anew. */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.running.clear();
    this.hide();
  }
}
