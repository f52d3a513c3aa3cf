/**
 * The last lines a stdio server wrote to stderr, bounded in lines and line length, so a chatty
 * server cannot grow our memory without end. Older output is counted, not kept.
 */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = "";
  private droppedBytes = 0;
  private totalBytes = 0;

  constructor(
    private readonly maxLines = 40,
    private readonly maxLineChars = 1_000,
  ) {}

  push(chunk: Buffer | string): string[] {
    const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
    this.totalBytes += Buffer.byteLength(text);
    const pieces = (this.partial + text).split(/\r?\n/);
    this.partial = this.clip(pieces.pop() ?? "");
    const complete = pieces.map((line) => this.clip(line));
    for (const line of complete) this.lines.push(line);
    while (this.lines.length > this.maxLines) {
      this.droppedBytes += Buffer.byteLength(this.lines.shift() ?? "") + 1;
    }
    return complete;
  }

  /** The kept lines, oldest first, including an unterminated last line. */
  snapshot(): string[] {
    return this.partial ? [...this.lines, this.partial] : [...this.lines];
  }

  /** For diagnostics: the tail, with a note of how much came before it. */
  describe(lastLines = this.maxLines): string {
    const all = this.snapshot();
    if (all.length === 0) return "(no stderr output)";
    const lines = all.slice(-lastLines);
    const hidden = all.length - lines.length;
    const before =
      this.droppedBytes > 0 || hidden > 0
        ? `[${hidden > 0 ? `${hidden} earlier lines ` : ""}${this.droppedBytes > 0 ? `${hidden > 0 ? "and " : ""}${this.droppedBytes} earlier bytes ` : ""}not shown]\n`
        : "";
    return `${before}${lines.join("\n")}`;
  }

  get bytesSeen(): number {
    return this.totalBytes;
  }

  private clip(line: string): string {
    return line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}…` : line;
  }
}
