// Small pieces of TypeScript type text shared by the schema converter and the declaration
// renderer. Everything that comes from a tool's author (names, literals, descriptions) goes
// through these, so that nothing it holds can end a string, a comment or a declaration early.

/** A name TypeScript takes bare, as a property, a method or after a dot. ASCII only: safe everywhere. */
export const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The longest description kept in a doc comment; tool authors write essays. */
export const DESCRIPTION_LIMIT = 300;

/** `name` as a property key: bare when it is an identifier, else a JSON string literal. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/**
 * A JSON value as a literal type, or undefined when it has none (objects, arrays, non-finite
 * numbers). JSON.stringify escapes quotes, backslashes and line breaks, so a string literal
 * cannot end early.
 */
export function literalType(value: unknown): string | undefined {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === "boolean") return String(value);
  if (value === null) return "null";
  return undefined;
}

/** The primitive type a literal widens to, for an enum too long to list. */
export function widenedType(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "number" && Number.isFinite(value)) return "number";
  if (typeof value === "boolean") return "boolean";
  if (value === null) return "null";
  return "unknown";
}

/** `text` on one line, cut to `limit` characters on a word boundary where one is near. */
export function oneLine(text: string, limit: number = DESCRIPTION_LIMIT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= limit) return flat;
  let cut = flat.slice(0, limit - 1);
  const space = cut.lastIndexOf(" ");
  if (space > limit * 0.6) cut = cut.slice(0, space);
  // A cut between the halves of a surrogate pair would leave half a character.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/**
 * A one-line doc comment for `description`, or "" when there is nothing to say. A star and a
 * slash inside are escaped, so the comment ends where it should and the code after it stays code.
 */
export function docComment(description: unknown, limit: number = DESCRIPTION_LIMIT): string {
  if (typeof description !== "string") return "";
  const text = oneLine(description, limit).replace(/\*\//g, "*\\/");
  return text === "" ? "" : `/** ${text} */`;
}

/** `type` parenthesised when it holds a union or an intersection, so it can be an operand. */
export function operand(type: string): string {
  return /[|&]/.test(type) ? `(${type})` : type;
}

/**
 * The union of `types`: duplicates dropped, `never` dropped (it adds nothing), and `unknown`
 * when any member is `unknown` (it swallows the rest).
 */
export function unionOf(types: readonly string[]): string {
  const members = [...new Set(types)].filter((type) => type !== "never");
  if (members.length === 0) return "never";
  if (members.includes("unknown")) return "unknown";
  if (members.length === 1) return members[0]!;
  return members.map((type) => (type.includes("&") ? `(${type})` : type)).join(" | ");
}

/**
 * The intersection of `types`: `unknown` dropped (it adds nothing), `never` when any member is
 * `never`, and a free-form object dropped beside anything more precise.
 */
export function intersectionOf(types: readonly string[]): string {
  let members = [...new Set(types)].filter((type) => type !== "unknown");
  if (members.includes("never")) return "never";
  if (members.length > 1) members = members.filter((type) => type !== FREE_FORM_OBJECT);
  if (members.length === 0) return "unknown";
  if (members.length === 1) return members[0]!;
  return members.map(operand).join(" & ");
}

/** What an object with no declared shape becomes. */
export const FREE_FORM_OBJECT = "Record<string, unknown>";

/** An array of `item`: `T[]` for a plain name, `Array<T>` for anything longer. */
export function arrayOf(item: string): string {
  return IDENTIFIER.test(item) ? `${item}[]` : `Array<${item}>`;
}

/** `value` when it is a plain object (a JSON object), else undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
