import { detachedSlice } from "@pseudoclaude/core/plugin";

/**
 * Every tool's output is bounded: text past a cap is cut, and the cut is said in words so a
 * model knows it did not see everything.
 */
export interface ClippedText {
  text: string;
  truncated: boolean;
}

/** Keep the first `maxChars` characters of `text`, with a note when something was cut. */
export function clipText(text: string, maxChars: number, hint = ""): ClippedText {
  if (text.length <= maxChars) return { text, truncated: false };
  const note = `\n[output truncated: showing the first ${maxChars} of ${text.length} characters${hint ? `; ${hint}` : ""}]`;
  return { text: detachedSlice(text, 0, maxChars) + note, truncated: true };
}

/** One line for display, cut at `maxChars` with a marker saying how long it was. */
export function clipLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${detachedSlice(line, 0, maxChars)}… [line cut: ${line.length} characters]`;
}

/** `1 file`, `2 files`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Byte counts the way people read them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
