import { clearLine, createInterface, cursorTo, type Interface } from "node:readline";
import type { CliIo, TextSink } from "../cli-io.js";
import type { Prompter } from "../prompter.js";

type CompleterCallback = (error: null, result: [string[], string]) => void;
type Completer = (line: string, callback: CompleterCallback) => void;

/**
 * The chat's one reader of standard input: node's readline, with line editing and history
 * when stdin is a terminal and plain lines when it is not (a pipe, a test). Lines typed while
 * a turn runs wait for the next prompt. In a terminal readline turns Ctrl-C into `onInterrupt`
 * (stdin is raw there, so no signal is sent); elsewhere the real SIGINT reaches the same
 * handler through the CLI. Ctrl-D on an empty line, or the end of piped input, ends it.
 */
export class LineInput implements Prompter {
  private readonly readline: Interface;
  private readonly queued: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private redraw: NodeJS.Immediate | undefined;
  private ended = false;
  private completer: Completer | undefined;

  constructor(
    io: CliIo,
    private readonly onInterrupt: () => void,
    /** Where the prompt is written: stdout for people, stderr when stdout carries JSON. */
    private readonly promptSink: NodeJS.WritableStream,
  ) {
    const terminal = Boolean(io.stdin.isTTY);
    this.readline = createInterface({
      input: io.stdin,
      output: terminal ? promptSink : undefined,
      terminal,
      historySize: terminal ? 100 : 0,
      // Tab completes what the chat knows how to (see completeWith); nothing else.
      ...(terminal
        ? {
            completer: (line: string, callback: CompleterCallback) =>
              this.completer ? this.completer(line, callback) : callback(null, [[], line]),
          }
        : {}),
    });
    this.readline.on("line", (line) => this.deliver(line));
    this.readline.on("close", () => {
      this.ended = true;
      this.deliver(undefined);
    });
    this.readline.on("SIGINT", () => this.onInterrupt());
  }

  /** What Tab completes from now on (a terminal only). */
  completeWith(completer: Completer): void {
    this.completer = completer;
  }

  /** The next line, or undefined once input has ended (Ctrl-D, end of the pipe). */
  next(prompt: string): Promise<string | undefined> {
    const ready = this.queued.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    if (this.ended) return Promise.resolve(undefined);
    if (this.readline.terminal) {
      this.readline.setPrompt(prompt);
      this.readline.prompt();
    } else if (prompt !== "") this.promptSink.write(prompt);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** One answer for a question (an approval, an elicitation field); "" once input ended. */
  async ask(question: string, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    const answer = this.next(question);
    if (!signal) return (await answer) ?? "";
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        // The question is withdrawn: the next line belongs to the chat again.
        this.waiting = undefined;
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      answer.then((line) => {
        signal.removeEventListener("abort", onAbort);
        resolve(line ?? "");
      });
    });
  }

  /**
   * A sink for output that may arrive while the prompt waits (a server joining): on a terminal
   * the prompt line is cleared first and drawn again after, with what was typed so far.
   */
  above(sink: TextSink): TextSink {
    return {
      isTTY: sink.isTTY,
      // Read when used: a terminal's width changes as the person resizes it.
      get columns() {
        return sink.columns;
      },
      write: (chunk: string) => {
        if (this.readline.terminal && this.waiting && !this.redraw) {
          const out = this.promptSink;
          clearLine(out, 0);
          cursorTo(out, 0);
          this.redraw = setImmediate(() => {
            this.redraw = undefined;
            if (this.waiting) this.readline.prompt(true);
          });
        }
        return sink.write(chunk);
      },
    };
  }

  /** Whether a prompt or question waits for a line now (the chat draws nothing over it). */
  get asking(): boolean {
    return this.waiting !== undefined;
  }

  get hasEnded(): boolean {
    return this.ended && this.queued.length === 0;
  }

  close(): void {
    if (this.redraw) clearImmediate(this.redraw);
    this.readline.close();
  }

  private deliver(line: string | undefined): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting(line);
    } else if (line !== undefined) this.queued.push(line);
  }
}
