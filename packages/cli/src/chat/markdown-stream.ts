/**
 * The model's Markdown as it streams, rendered a block at a time: text is held until a block
 * is complete (a blank line outside a code fence), then rendered and shown, so a paragraph,
 * a list or a whole code block appears rendered while the answer is still coming. What is
 * left when the answer ends is rendered then. Without a renderer (no terminal, `NO_COLOR`)
 * text passes as it comes.
 */
export class MarkdownStream {
  private held = "";
  /** Inside a fenced code block: its fence (``` or ~~~) until the closing one. */
  private fence: string | undefined;
  /** Where in `held` the next unread line starts. */
  private scanned = 0;

  constructor(private readonly render: ((markdown: string) => string) | undefined) {}

  /** A piece of the answer; returns what to show now (maybe nothing). */
  push(text: string): string {
    if (!this.render) return text;
    this.held += text;
    let shown = "";
    let end = this.held.indexOf("\n", this.scanned);
    while (end >= 0) {
      const line = this.held.slice(this.scanned, end);
      this.scanned = end + 1;
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker && (!this.fence || marker.startsWith(this.fence))) {
        this.fence = this.fence ? undefined : marker.slice(0, 3);
      } else if (!this.fence && line.trim() === "" && this.held.trim() !== "") {
        shown += this.take(this.scanned);
      }
      end = this.held.indexOf("\n", this.scanned);
    }
    return shown;
  }

  /** The answer ended (or something else must be shown): what is held, rendered. */
  flush(): string {
    // The next answer starts afresh, even after a code block this one left open.
    const shown = this.take(this.held.length);
    this.fence = undefined;
    return shown;
  }

  private take(upTo: number): string {
    const block = this.held.slice(0, upTo);
    this.held = this.held.slice(upTo);
    this.scanned = 0;
    if (block.trim() === "") return "";
    const rendered = this.render?.(block) ?? block;
    return rendered.endsWith("\n") ? rendered : `${rendered}\n`;
  }
}
