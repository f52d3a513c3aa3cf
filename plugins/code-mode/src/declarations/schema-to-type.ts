// JSON Schema (draft 2020-12 and draft-07, as MCP servers send them; OpenAPI's `nullable` too)
// to the text of a TypeScript type, for the declarations the model reads in code mode. It is
// synchronous and has no dependencies, and it never throws: a tool's schema comes from a
// server that may be careless or hostile, and whatever it cannot read becomes `unknown`.
// Validation keywords (format, minimum, pattern, minItems ...) say nothing a type can, and
// are left out.
import { resolveLocalRef } from "./local-ref.js";
import { mergeAllOf } from "./merge-all-of.js";
import { objectType } from "./object-type.js";
import {
  charge,
  composed,
  createRenderContext,
  exhausted,
  itemOf,
  mayOpenRef,
  mayVisit,
  type RenderContext,
  type RenderPosition,
} from "./render-context.js";
import {
  arrayOf,
  asRecord,
  intersectionOf,
  literalType,
  unionOf,
  widenedType,
} from "./type-text.js";

/** How a schema becomes a type. */
export interface SchemaToTypeOptions {
  /** How deep objects and arrays nest before the rest is `unknown` (default 8). */
  maxDepth?: number | undefined;
  /**
   * Roughly the most characters the type may take (default 4,000): past it, nested parts are
   * `unknown` and an object's remaining properties are replaced by a note and an index
   * signature, so one server cannot flood the prompt.
   */
  maxChars?: number | undefined;
  /** Indentation of the line the type starts on, for the lines a multi-line type adds. */
  indent?: string | undefined;
}

/** A type's text, and whether anything was left out to stay within the bounds. */
export interface TypeText {
  text: string;
  truncated: boolean;
}

/** The TypeScript type of values `schema` accepts; `unknown` for anything it cannot read. */
export function schemaToType(schema: unknown, options: SchemaToTypeOptions = {}): string {
  return convertSchema(schema, options).text;
}

/** {@link schemaToType}, also saying whether the bounds cut anything. */
export function convertSchema(schema: unknown, options: SchemaToTypeOptions = {}): TypeText {
  const context = createRenderContext(schema, options);
  const indent =
    typeof options.indent === "string" && /^ *$/.test(options.indent) ? options.indent : "";
  try {
    const text = renderNode(schema, context, { indent, depth: 0, nesting: 0 });
    // The budget is kept as the text is built, so this holds; it is the last line of defence
    // should some shape slip past it.
    if (text.length > context.maxChars * 2 + 200) return { text: "unknown", truncated: true };
    return { text, truncated: context.truncated };
  } catch {
    // Getters that throw, proxies, cycles JSON never has: nothing the model can use.
    return { text: "unknown", truncated: true };
  }
}

function renderNode(schema: unknown, context: RenderContext, at: RenderPosition): string {
  if (schema === true || schema === undefined) return charge(context, "unknown");
  if (schema === false) return charge(context, "never");
  const record = asRecord(schema);
  if (record === undefined || !mayVisit(context, at)) return charge(context, "unknown");
  let type: string;
  if (typeof record.$ref === "string") {
    // Beside a `$ref`, 2020-12 applies the other keywords too; mostly there are none.
    const { $ref, ...rest } = record;
    const others = composedType(mergeAllOf(rest, context.root) ?? rest, context, at);
    type = intersectionOf([referencedType($ref, context, at), others]);
  } else type = composedType(mergeAllOf(record, context.root) ?? record, context, at);
  return record.nullable === true ? withNull(type, context) : type;
}

function referencedType(ref: string, context: RenderContext, at: RenderPosition): string {
  const target = resolveLocalRef(context.root, ref);
  if (target === undefined || !mayOpenRef(context, ref)) {
    if (target !== undefined) context.truncated = true;
    return charge(context, "unknown");
  }
  context.openRefs.push(ref);
  try {
    return renderNode(target, context, composed(at));
  } finally {
    context.openRefs.pop();
  }
}

/** The schema's own type, intersected with its `anyOf`, `oneOf` and `allOf`. */
function composedType(
  schema: Record<string, unknown>,
  context: RenderContext,
  at: RenderPosition,
): string {
  const parts: string[] = [];
  const own = ownType(schema, context, at);
  if (own !== undefined) parts.push(own);
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > 0)
      parts.push(unionOf(branches.map((branch) => renderNode(branch, context, composed(at)))));
  }
  if (Array.isArray(schema.allOf))
    for (const branch of schema.allOf) parts.push(renderNode(branch, context, composed(at)));
  return parts.length === 0 ? charge(context, "unknown") : intersectionOf(parts);
}

/** What `const`, `enum` and `type` (or, without one, the keywords present) say. */
function ownType(
  schema: Record<string, unknown>,
  context: RenderContext,
  at: RenderPosition,
): string | undefined {
  if (Object.hasOwn(schema, "const"))
    return charge(context, literalType(schema.const) ?? "unknown");
  if (Array.isArray(schema.enum)) return enumType(schema.enum, context);
  const declared = schema.type;
  if (typeof declared === "string") return typeNamed(declared, schema, context, at);
  if (Array.isArray(declared)) {
    const names = [...new Set(declared.filter((name) => typeof name === "string"))];
    if (names.length > 0) return unionOf(names.map((name) => typeNamed(name, schema, context, at)));
  }
  if (
    schema.properties !== undefined ||
    schema.patternProperties !== undefined ||
    typeof schema.additionalProperties === "object"
  )
    return typeNamed("object", schema, context, at);
  if (schema.items !== undefined || schema.prefixItems !== undefined)
    return typeNamed("array", schema, context, at);
  return undefined;
}

function typeNamed(
  name: string,
  schema: Record<string, unknown>,
  context: RenderContext,
  at: RenderPosition,
): string {
  switch (name) {
    case "string":
    case "boolean":
    case "null":
      return charge(context, name);
    case "number":
    case "integer":
      return charge(context, "number");
    case "object":
      return objectType(schema, context, at, renderNode);
    case "array":
      return arrayType(schema, context, at);
    default:
      return charge(context, "unknown");
  }
}

/** The union of an enum's literals; their primitive types instead when listing them would not fit. */
function enumType(values: readonly unknown[], context: RenderContext): string {
  const literals: string[] = [];
  let length = 0;
  for (const value of values) {
    const literal = literalType(value);
    if (literal === undefined) return charge(context, "unknown");
    literals.push(literal);
    length += literal.length + 3;
    if (context.spent + length > context.maxChars) {
      context.truncated = true;
      return charge(context, unionOf(values.map(widenedType)));
    }
  }
  return charge(context, unionOf(literals));
}

/** Arrays: `T[]`, or a tuple for `prefixItems` (2020-12) or an `items` array (draft-07). */
function arrayType(
  schema: Record<string, unknown>,
  context: RenderContext,
  at: RenderPosition,
): string {
  const element = itemOf(at);
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
  if (tuple === undefined) return wrapped(context, renderNode(schema.items, context, element));
  const elements: string[] = [];
  for (const item of tuple) {
    // A tuple cut short would say the wrong length: an array of anything says less but no lie.
    if (exhausted(context)) return charge(context, "unknown[]");
    elements.push(renderNode(item, context, element));
  }
  // 2020-12: `items` beside `prefixItems` describes the elements after the tuple's.
  if (tuple === schema.prefixItems && asRecord(schema.items) !== undefined)
    elements.push(`...${wrapped(context, renderNode(schema.items, context, element))}`);
  charge(context, "[]".padEnd(2 + 2 * elements.length));
  return `[${elements.join(", ")}]`;
}

/** `item[]` or `Array<item>`, charging what wraps the item. */
function wrapped(context: RenderContext, item: string): string {
  const text = arrayOf(item);
  context.spent += text.length - item.length;
  return text;
}

function withNull(type: string, context: RenderContext): string {
  if (type === "unknown" || type === "null" || type.endsWith(" | null")) return type;
  return `${type}${charge(context, " | null")}`;
}
