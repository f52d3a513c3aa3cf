/** One server-sent event: its data (lines joined with `\n`), type and id, when given. */
export interface SseEvent {
  data: string;
  event?: string;
  id?: string;
}

/**
 * Server-sent events from a text stream, fed in chunks of any size (the WHATWG event-stream
 * rules: lines end in CRLF, LF or CR; `data` lines join; a blank line ends an event; comments
 * and unknown fields are skipped). An event with an id but no data is still given, so its id
 * can be kept for resuming the stream; the reader of the events skips its empty data.
 */
export class SseEventReader {
  private buffer = "";
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;
  /** A chunk ended in CR: a LF starting the next one belongs to that line end. */
  private afterCr = false;
  /** The reconnection time the server last asked for (`retry:`), in milliseconds. */
  retryMs: number | undefined;

  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.afterCr && text.startsWith("\n")) text = text.slice(1);
    this.afterCr = false;
    const events: SseEvent[] = [];
    let start = 0;
    const all = this.buffer + text;
    for (let index = this.buffer.length; index < all.length; index++) {
      const char = all.charCodeAt(index);
      if (char !== 10 && char !== 13) continue;
      this.line(all.slice(start, index), events);
      if (char === 13) {
        if (index + 1 < all.length) {
          if (all.charCodeAt(index + 1) === 10) index++;
        } else this.afterCr = true;
      }
      start = index + 1;
    }
    this.buffer = all.slice(start);
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === "") {
      if (this.data.length > 0 || this.id !== undefined) {
        const event: SseEvent = { data: this.data.join("\n") };
        if (this.event !== undefined) event.event = this.event;
        if (this.id !== undefined) event.id = this.id;
        events.push(event);
      }
      this.data = [];
      this.event = undefined;
      this.id = undefined;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
  }
}
