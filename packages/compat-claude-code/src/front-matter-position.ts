import type { FrontMatter } from "./read-front-matter.js";

/** A 1-based line and column in the file a front matter was read from. */
export interface FilePosition {
  line: number;
  column: number;
}

/**
 * Where a top-level field of a front matter is, so a diagnostic about its value points at it:
 * the value's start, else the key's (a key with no value), else undefined (no such key). Lines
 * count from the top of the file, the opening `---` included; the lenient retry keeps them.
 */
export function frontMatterPosition(
  frontMatter: Pick<FrontMatter, "document" | "lineCounter">,
  key: string,
): FilePosition | undefined {
  const { document, lineCounter } = frontMatter;
  const value = document.get(key, true) as { range?: [number, number, number] } | undefined;
  const offset = value?.range?.[0] ?? keyOffset(frontMatter, key);
  if (offset === undefined) return undefined;
  const position = lineCounter.linePos(offset);
  return { line: position.line, column: position.col };
}

function keyOffset(frontMatter: Pick<FrontMatter, "document">, key: string): number | undefined {
  const items = (
    frontMatter.document.contents as {
      items?: Array<{ key?: { value?: unknown; range?: number[] } }>;
    } | null
  )?.items;
  return items?.find((pair) => pair.key?.value === key)?.key?.range?.[0];
}
