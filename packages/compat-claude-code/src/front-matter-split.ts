/** A Markdown file cut in two: the front matter (with its opening `---`) and the body. */
export interface FrontMatterSplit {
  /** From the opening `---` to the end of the front matter, so YAML positions are the file's. */
  yaml: string;
  body: string;
  /** 1-based line where the body starts. */
  bodyLine: number;
}

// The opening fence is the very first line; the closing one is the next line that is `---`
// (or `...`, YAML's document end) alone.
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * Cut a SKILL.md or agent file at its front-matter fences. Undefined when the file does not
 * start with a `---` line; `{ unclosed: true }` when no closing fence follows.
 */
export function splitFrontMatter(text: string): FrontMatterSplit | { unclosed: true } | undefined {
  const opening = OPENING.exec(text);
  if (!opening) return undefined;
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { unclosed: true };
  const yamlEnd = opening[0].length + closing.index;
  const afterFence = text.indexOf("\n", yamlEnd);
  const bodyStart = afterFence === -1 ? text.length : afterFence + 1;
  return {
    yaml: text.slice(0, yamlEnd),
    body: text.slice(bodyStart),
    bodyLine: text.slice(0, bodyStart).split("\n").length,
  };
}
