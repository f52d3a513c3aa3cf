/** One `@path` reference in an instruction file, where Claude Code would import it. */
export interface InstructionImport {
  /** The path as written, unescaped, without a `#fragment`: `docs/style.md`, `~/notes.md`. */
  path: string;
  /** 1-based line of the reference. */
  line: number;
}

/**
 * `@` at the start of a line or after white space, then a path up to the next white space
 * (`\ ` keeps a space in it): Claude Code's own pattern, so `name@example.com` is no import.
 */
const REFERENCE = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;
/** A fence opens a code block: three or more backticks or tildes, indented at most 3 spaces. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

/**
 * The imports of an instruction file, in order, as Claude Code finds them: `@path` anywhere in
 * the text, but not inside code (fenced or indented blocks, backtick spans), where `@` is code
 * (a decorator, `@scope/package`) rather than an import.
 */
export function findImports(text: string): InstructionImport[] {
  const found: InstructionImport[] = [];
  let fence: string | undefined;
  let previousBlank = true;
  let inList = false;
  text.split(/\r?\n/).forEach((line, index) => {
    const opener = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      // A closing fence is the same character, at least as long, and nothing after it.
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && isClosing(line)) {
        fence = undefined;
      }
      return;
    }
    if (opener) {
      fence = opener;
      return;
    }
    const blank = line.trim() === "";
    // An indented line after a blank one is a code block, unless it continues a list item.
    const indentedCode = !blank && /^(?: {4}|\t)/.test(line) && previousBlank && !inList;
    if (!blank && !/^\s/.test(line)) inList = LIST_ITEM.test(line);
    previousBlank = blank || (indentedCode && previousBlank);
    if (blank || indentedCode) return;
    for (const reference of referencesOutsideSpans(line))
      found.push({ path: reference, line: index + 1 });
  });
  return found;
}

function isClosing(line: string): boolean {
  return /^ {0,3}(`{3,}|~{3,})\s*$/.test(line);
}

/** The `@path` references of one line, leaving out what is inside backtick code spans. */
function referencesOutsideSpans(line: string): string[] {
  const references: string[] = [];
  for (const part of outsideSpans(line)) {
    for (const match of part.matchAll(REFERENCE)) {
      const cleaned = cleanPath(match[1] ?? "");
      if (cleaned !== undefined) references.push(cleaned);
    }
  }
  return references;
}

/**
 * The parts of a line outside code spans: a run of backticks opens a span that only the same
 * number of backticks closes; an unclosed run is plain text.
 */
function outsideSpans(line: string): string[] {
  const parts: string[] = [];
  let rest = line;
  for (;;) {
    const open = /`+/.exec(rest);
    if (!open) break;
    const ticks = open[0];
    const after = rest.slice(open.index + ticks.length);
    const close = new RegExp(`(?<!\`)${ticks}(?!\`)`).exec(after);
    if (!close) break;
    parts.push(rest.slice(0, open.index));
    rest = after.slice(close.index + ticks.length);
  }
  parts.push(rest);
  return parts;
}

/**
 * A reference as a path, or undefined when Claude Code would not take it for one: another `@`
 * (`@@name`), a bare `/`, or a start no file name has (`@#`, `@(`).
 */
function cleanPath(raw: string): string | undefined {
  const withoutFragment = raw.split("#")[0] ?? "";
  const unescaped = withoutFragment.replace(/\\ /g, " ");
  if (unescaped === "" || unescaped === "/") return undefined;
  if (unescaped.startsWith("~/") || unescaped.startsWith("/")) return unescaped;
  // Relative paths (`./x`, `../x`, `docs/x.md`) start as a file name does.
  return /^[A-Za-z0-9._-]/.test(unescaped) ? unescaped : undefined;
}
