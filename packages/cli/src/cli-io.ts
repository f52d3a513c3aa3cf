/** Something text can be written to: `process.stdout`, `process.stderr` or a test buffer. */
export interface TextSink {
  write(chunk: string): unknown;
  readonly isTTY?: boolean | undefined;
  /** A terminal's width in characters (what Node's TTY streams say). */
  readonly columns?: number | undefined;
}

/**
 * Everything the CLI touches outside itself, passed in so that tests can run `main` in-process
 * with buffers instead of the real process streams.
 */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  /** Where prompt answers come from. */
  stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /** Base for relative paths (`--workspace`, `--script`, `--plugin`). */
  cwd: string;
  /** Whether a person can answer prompts. Default: stdin and stderr are both terminals. */
  interactive?: boolean;
  /** Aborted on Ctrl-C; running commands stop, close the agent and return 130. */
  signal?: AbortSignal;
  /**
   * Take Ctrl-C over while `handler` is installed (a chat cancels its turn instead of ending):
   * the handler returns true when it dealt with the interrupt. Returns the uninstaller.
   */
  onInterrupt?(handler: () => boolean): () => void;
}

/** Whether prompts can be shown: explicit setting first, else both ends must be terminals. */
export function isInteractive(io: CliIo): boolean {
  return io.interactive ?? Boolean(io.stdin.isTTY && io.stderr.isTTY);
}

/** Write one line. */
export function writeLine(sink: TextSink, line = ""): void {
  sink.write(`${line}\n`);
}

/** Write exactly one JSON document: `--json` promises stdout parses as one value. */
export function writeJson(sink: TextSink, value: unknown): void {
  sink.write(`${JSON.stringify(value, null, 2)}\n`);
}
