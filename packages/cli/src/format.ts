import { type ContentBlock } from "@pseudoclaude/core";
import { describeContentBlock } from "@pseudoclaude/core/plugin";

/** Shorten to `max` characters with an ellipsis, keeping lines readable. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Arguments as one compact line; raw strings (unparsed JSON) are shown as given. */
export function compactArgs(args: unknown, max = 200): string {
  if (typeof args === "string") return truncate(args, max);
  let text: string;
  try {
    text = JSON.stringify(args) ?? String(args);
  } catch {
    text = String(args);
  }
  return truncate(text, max);
}

/** Content as text for a terminal: text blocks as they are, other kinds described. */
export function contentText(content: readonly ContentBlock[]): string {
  return content.map((block) => describeContentBlock(block)).join("\n");
}

/** The first line, for one-line summaries. */
export function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}

/** Left-aligned columns; the last column is not padded. */
export function table(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) =>
    Math.max(...all.map((row) => (row[column] ?? "").length)),
  );
  return all.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd(),
  );
}
