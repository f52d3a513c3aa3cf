/**
 * The program's console output, kept up to a byte budget. Once full it refuses more, and the
 * guest stops formatting lines nobody will read.
 */
export class LogBuffer {
  private readonly lines: string[] = [];
  private bytes = 0;
  private full = false;

  constructor(private readonly maxBytes: number) {}

  /** Keep one line (`console.warn` etc. get a `[level]` prefix); false once the budget is spent. */
  add(level: string, text: string): boolean {
    if (this.full) return false;
    const line = level === "log" ? text : `[${level}] ${text}`;
    const size = Buffer.byteLength(line) + (this.lines.length > 0 ? 1 : 0);
    if (this.bytes + size <= this.maxBytes) {
      this.lines.push(line);
      this.bytes += size;
      return true;
    }
    this.full = true;
    const room = this.maxBytes - this.bytes - (this.lines.length > 0 ? 1 : 0);
    if (room > 0) {
      // Cut on a byte boundary, then drop a character the cut left half-written.
      const cut = Buffer.from(line)
        .subarray(0, room)
        .toString("utf8")
        .replace(/\uFFFD+$/, "");
      this.lines.push(cut);
    }
    return false;
  }

  /** Everything kept, one line per console call. */
  get text(): string {
    return this.lines.join("\n");
  }

  /** True once output was dropped. */
  get truncated(): boolean {
    return this.full;
  }
}
