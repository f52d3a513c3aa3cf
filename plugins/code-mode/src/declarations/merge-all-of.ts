// `allOf` of plain object schemas, merged into one object schema: `{ a: string; b?: number }`
// reads better than `{ a: string } & { b?: number }`, and it is what generators of OpenAPI
// and zod `.and()` output mean. Anything less plain stays an intersection.
import { resolveLocalRef } from "./local-ref.js";
import { asRecord } from "./type-text.js";

/** Keywords that make a schema more than a bag of properties. */
const SHAPING = [
  "$ref",
  "allOf",
  "anyOf",
  "oneOf",
  "const",
  "enum",
  "items",
  "prefixItems",
  "patternProperties",
  "nullable",
] as const;

/**
 * One object schema equal to `schema` with its `allOf` folded in, or undefined when a branch
 * is not a plain object schema, or two branches say different things about one property.
 * A branch that is a bare local `$ref` is followed one step.
 */
export function mergeAllOf(
  schema: Record<string, unknown>,
  root: unknown,
): Record<string, unknown> | undefined {
  const branches = schema.allOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const { allOf: _branches, ...own } = schema;
  const parts: Record<string, unknown>[] = [own];
  for (const branch of branches) {
    const plain = asRecord(followBareRef(branch, root));
    if (plain === undefined) return undefined;
    parts.push(plain);
  }
  if (!parts.every(isPlainObjectSchema)) return undefined;
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  let additional: unknown;
  for (const part of parts) {
    for (const [key, value] of Object.entries(asRecord(part.properties) ?? {})) {
      if (Object.hasOwn(properties, key) && !sameSchema(properties[key], value)) return undefined;
      properties[key] = value;
    }
    if (Array.isArray(part.required))
      for (const key of part.required) if (typeof key === "string") required.add(key);
    if (part.additionalProperties === undefined) continue;
    // Closed anywhere is closed in the merge; two different open shapes are not plain.
    if (part.additionalProperties === false || additional === false) additional = false;
    else if (additional !== undefined && !sameSchema(additional, part.additionalProperties))
      return undefined;
    else additional = part.additionalProperties;
  }
  return {
    type: "object",
    properties,
    required: [...required],
    ...(additional !== undefined ? { additionalProperties: additional } : {}),
  };
}

function followBareRef(branch: unknown, root: unknown): unknown {
  const record = asRecord(branch);
  if (record === undefined || typeof record.$ref !== "string") return branch;
  const others = Object.keys(record).filter((key) => key !== "$ref" && key !== "description");
  return others.length === 0 ? resolveLocalRef(root, record.$ref) : branch;
}

function isPlainObjectSchema(part: Record<string, unknown>): boolean {
  if (part.type !== undefined && part.type !== "object") return false;
  return SHAPING.every((keyword) => part[keyword] === undefined);
}

function sameSchema(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}
