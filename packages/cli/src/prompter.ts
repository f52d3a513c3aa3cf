import { createInterface, type Interface } from "node:readline";
import type { CliIo } from "./cli-io.js";

/** Asks a person one question at a time and returns the line they typed. */
export interface Prompter {
  /** Write `question` to stderr and wait for one line; `""` when input has ended. */
  ask(question: string, signal?: AbortSignal): Promise<string>;
  /** Stop reading input. Safe to call twice, and when nothing was ever asked. */
  close(): void;
}

/**
 * A prompter on the CLI's stdin/stderr. stdin is opened on the first question only, so
 * commands that never ask do not hold it open. Readline runs without terminal handling: the
 * terminal echoes what is typed and Ctrl-C stays a real SIGINT that aborts the command.
 */
export class ReadlinePrompter implements Prompter {
  private readline: Interface | undefined;
  private lines: AsyncIterator<string> | undefined;
  // Questions from concurrent callers (two servers eliciting at once) must not interleave.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly io: CliIo) {}

  ask(question: string, signal?: AbortSignal): Promise<string> {
    const answer = this.queue.then(() => this.askNow(question, signal));
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  close(): void {
    this.readline?.close();
    this.readline = undefined;
    this.lines = undefined;
  }

  private async askNow(question: string, signal: AbortSignal | undefined): Promise<string> {
    signal?.throwIfAborted();
    if (!this.lines) {
      this.readline = createInterface({ input: this.io.stdin, terminal: false });
      // The iterator buffers lines, so answers typed (or piped) ahead of a question are kept.
      this.lines = this.readline[Symbol.asyncIterator]();
    }
    this.io.stderr.write(question);
    const next = await raceAbort(this.lines.next(), signal);
    return next.done ? "" : next.value;
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
