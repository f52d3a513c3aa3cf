// The state one conversion carries: what `$ref` resolves against, and the bounds that keep a
// hostile schema (deep, wide, recursive, or built to expand exponentially) from costing more
// than a few thousand characters of prompt or a few milliseconds of work.

/** How deep objects and arrays nest before the rest is `unknown`, unless the caller says. */
export const DEFAULT_MAX_DEPTH = 8;

/** The most characters one schema's type may take, unless the caller says. */
export const DEFAULT_MAX_TYPE_CHARS = 4_000;

/**
 * How many nodes one conversion visits at most. Each visit costs some output in a sane schema,
 * but `allOf` of `allOf` of ... costs none, so output alone would not bound the work.
 */
const MAX_STEPS = 20_000;

/** How many compositions and `$ref`s may nest, whatever the depth of objects and arrays. */
const MAX_NESTING = 64;

/**
 * How often one `$ref` may be open inside itself: a recursive type is shown once more inside
 * itself (so the model sees that it repeats), then it is `unknown`.
 */
const MAX_REF_REPEATS = 2;

/** Where in the type a node is rendered. */
export interface RenderPosition {
  /** Indentation of the lines the node's own closing brace sits on. */
  readonly indent: string;
  /** Objects and arrays around the node. */
  readonly depth: number;
  /** Compositions and references around the node, objects and arrays included. */
  readonly nesting: number;
}

/** One conversion's state. */
export interface RenderContext {
  /** What local `$ref`s point into: the schema the conversion started from. */
  readonly root: unknown;
  readonly maxDepth: number;
  readonly maxChars: number;
  /** Characters of output so far (as the multi-line layout would take them). */
  spent: number;
  steps: number;
  /** Set when something was left out to stay within the bounds. */
  truncated: boolean;
  /** The `$ref`s being expanded, outermost first. */
  readonly openRefs: string[];
}

export function createRenderContext(
  root: unknown,
  options: { maxDepth?: number | undefined; maxChars?: number | undefined },
): RenderContext {
  return {
    root,
    maxDepth: boundedCount(options.maxDepth, DEFAULT_MAX_DEPTH),
    maxChars: boundedCount(options.maxChars, DEFAULT_MAX_TYPE_CHARS),
    spent: 0,
    steps: 0,
    truncated: false,
    openRefs: [],
  };
}

function boundedCount(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value)
    ? Math.max(0, Math.floor(value))
    : fallback;
}

/**
 * Counts a visit, and says whether the node may still be rendered. When not, the context is
 * marked truncated and the node is to be `unknown`.
 */
export function mayVisit(context: RenderContext, at: RenderPosition): boolean {
  context.steps += 1;
  const allowed =
    context.steps <= MAX_STEPS &&
    at.nesting <= MAX_NESTING &&
    at.depth <= context.maxDepth &&
    context.spent < context.maxChars;
  if (!allowed) context.truncated = true;
  return allowed;
}

/** Whether the output has used its characters up. */
export function exhausted(context: RenderContext): boolean {
  return context.spent >= context.maxChars;
}

/** Counts `text`'s characters against the budget, and returns it. */
export function charge(context: RenderContext, text: string): string {
  context.spent += text.length;
  return text;
}

/** Whether `ref` may be opened once more where it is. */
export function mayOpenRef(context: RenderContext, ref: string): boolean {
  let open = 0;
  for (const entry of context.openRefs) if (entry === ref) open += 1;
  return open < MAX_REF_REPEATS;
}

/** The position one level in: a property's value, an item, an index signature's value. */
export function inside(at: RenderPosition): RenderPosition {
  return { indent: `${at.indent}  `, depth: at.depth + 1, nesting: at.nesting + 1 };
}

/** The same place in the text, one composition or reference deeper. */
export function composed(at: RenderPosition): RenderPosition {
  return { indent: at.indent, depth: at.depth, nesting: at.nesting + 1 };
}

/** An item's position: one level deeper, but on the same lines as its array. */
export function itemOf(at: RenderPosition): RenderPosition {
  return { indent: at.indent, depth: at.depth + 1, nesting: at.nesting + 1 };
}
