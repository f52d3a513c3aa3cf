/**
 * The program's console output, counted against a byte budget in the worker; each line kept is
 * handed to `keep` (which sends it to the agent's thread, so a worker ended by force still
 * leaves the lines before). Once full it refuses more, and the guest stops formatting lines
 * nobody will read.
 */
export class LogBuffer {
  private lines = 0;
  private bytes = 0;
  private full = false;

  constructor(
    private readonly maxBytes: number,
    private readonly keep: (line: string) => void,
  ) {}

  /** Keep one line (`console.warn` etc. get a `[level]` prefix); false once the budget is spent. */
  add(level: string, text: string): boolean {
    if (this.full) return false;
    const line = level === "log" ? text : `[${level}] ${text}`;
    const size = Buffer.byteLength(line) + (this.lines > 0 ? 1 : 0);
    if (this.bytes + size <= this.maxBytes) {
      this.lines += 1;
      this.bytes += size;
      this.keep(line);
      return true;
    }
    this.full = true;
    const room = this.maxBytes - this.bytes - (this.lines > 0 ? 1 : 0);
    if (room > 0) {
      // Cut on a byte boundary, then drop a character the cut left half-written.
      const cut = Buffer.from(line)
        .subarray(0, room)
        .toString("utf8")
        .replace(/\uFFFD+$/, "");
      this.lines += 1;
      this.keep(cut);
    }
    return false;
  }

  /** True once output was dropped. */
  get truncated(): boolean {
    return this.full;
  }
}
