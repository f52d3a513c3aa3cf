import { type Document, LineCounter, parseDocument } from "yaml";
import { splitFrontMatter } from "./front-matter-split.js";
import { quoteSpecialValues } from "./quote-special-values.js";

/** The most aliases a front matter may expand: a "billion laughs" file stops here. */
const MAX_ALIAS_COUNT = 100;

/** Front matter that was read: its data, and the parsed document to locate keys with. */
export interface FrontMatter {
  /** The YAML as data (a mapping in every well-formed file; callers check). */
  data: unknown;
  /** The parsed YAML; its ranges are offsets in the file, lines through `lineCounter`. */
  document: Document.Parsed;
  lineCounter: LineCounter;
  /** The Markdown after the closing fence. */
  body: string;
  /** 1-based line where the body starts. */
  bodyLine: number;
  /**
   * True when strict YAML failed and Claude Code's lenient retry (values with YAML-special
   * characters quoted) read it: the file loads, as in Claude Code.
   */
  lenient: boolean;
}

/** What reading a file's front matter gives: the data, or why there is none, with where. */
export type FrontMatterRead =
  | { kind: "ok"; frontMatter: FrontMatter }
  /** The file does not start with a `---` line. */
  | { kind: "missing" }
  /** A `---` line opens it and none closes it. */
  | { kind: "unclosed" }
  /** Not YAML, not even after the lenient retry: Claude Code cannot read it either. */
  | { kind: "invalid"; line: number; column: number; message: string };

/**
 * Read the front matter of a SKILL.md or agent file as Claude Code does: strict YAML first
 * (duplicate keys are errors), then, only if that fails, once more with every top-level value
 * that holds a YAML-special character quoted ({@link quoteSpecialValues}). Files with
 * `description: Use when: …` therefore load, as they do in Claude Code; what fails both ways
 * is `invalid` with the 1-based line and column (in the file) of the retry's first error.
 */
export function readFrontMatter(text: string): FrontMatterRead {
  const split = splitFrontMatter(text);
  if (split === undefined) return { kind: "missing" };
  if ("unclosed" in split) return { kind: "unclosed" };
  const strict = parseYaml(split.yaml);
  const parsed = strict.kind === "ok" ? strict : parseYaml(quoteSpecialValues(split.yaml));
  if (parsed.kind !== "ok") return parsed;
  return {
    kind: "ok",
    frontMatter: {
      data: parsed.data,
      document: parsed.document,
      lineCounter: parsed.lineCounter,
      body: split.body,
      bodyLine: split.bodyLine,
      lenient: strict.kind !== "ok",
    },
  };
}

type YamlParse =
  | { kind: "ok"; data: unknown; document: Document.Parsed; lineCounter: LineCounter }
  | { kind: "invalid"; line: number; column: number; message: string };

// The slice keeps the opening `---` (a document start marker), so offsets are the file's.
function parseYaml(yaml: string): YamlParse {
  const lineCounter = new LineCounter();
  const document = parseDocument(yaml, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const [error] = document.errors;
  if (error) {
    const position = lineCounter.linePos(error.pos[0]);
    return {
      kind: "invalid",
      line: position.line,
      column: position.col,
      message: firstLine(error.message),
    };
  }
  try {
    return {
      kind: "ok",
      data: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }),
      document,
      lineCounter,
    };
  } catch (cause) {
    return { kind: "invalid", line: 1, column: 1, message: firstLine(String(cause)) };
  }
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}
