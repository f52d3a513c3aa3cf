/**
 * Bounded capture of a stream of text that keeps its beginning and its end: a command's first
 * lines usually say what it is doing and its last ones how it failed. Memory never exceeds
 * about twice the capacity, however much arrives.
 */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private seen = 0;
  private readonly headCapacity: number;
  private readonly tailCapacity: number;

  constructor(readonly capacity: number) {
    this.headCapacity = Math.ceil(capacity / 2);
    this.tailCapacity = capacity - this.headCapacity;
  }

  append(chunk: string): void {
    if (chunk.length === 0) return;
    this.seen += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headCapacity) {
      const room = this.headCapacity - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    this.tail += rest;
    // Trim in steps rather than on every chunk, so appending stays cheap.
    if (this.tail.length > 2 * this.tailCapacity) this.tail = this.tail.slice(-this.tailCapacity);
  }

  /** Characters received in total. */
  get totalChars(): number {
    return this.seen;
  }

  get truncated(): boolean {
    return this.seen > this.capacity;
  }

  /** The captured text; when something was dropped, a note in the middle says how much. */
  text(): string {
    if (!this.truncated) return this.head + this.tail;
    const tail = this.tail.slice(-this.tailCapacity);
    const omitted = this.seen - this.head.length - tail.length;
    return `${this.head}\n[... ${omitted} characters omitted (output cap ${this.capacity}) ...]\n${tail}`;
  }
}
