import type { JsonSchema } from "../types.js";

/** The one type a field edits: the schema's own, or the first non-null of a type list. */
export function typeOf(schema: JsonSchema): string | undefined {
  if (schema.enum) return "enum";
  const type = Array.isArray(schema.type)
    ? schema.type.find((item) => item !== "null")
    : schema.type;
  if (type) return type;
  if (schema.properties) return "object";
  return undefined;
}

/** A form's starting value: defaults where the schema gives them, empty objects and lists. */
export function initialValue(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  const type = typeOf(schema);
  if (type === "object") {
    const value: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      const initial = initialValue(property);
      if (initial !== undefined) value[key] = initial;
    }
    return value;
  }
  if (type === "array") return [];
  if (type === "boolean" && schema.default === undefined) return undefined;
  return undefined;
}

/**
 * What is wrong with `value` for `schema`, by field path (`tags.0`, `options.depth`): the
 * messages the form shows under each field before anything is sent.
 */
export function validate(
  schema: JsonSchema,
  value: unknown,
  path = "",
  errors: Record<string, string> = {},
): Record<string, string> {
  const type = typeOf(schema);
  if (value === undefined || value === "") return errors;
  if (type === "object" && isObject(value)) {
    for (const key of schema.required ?? []) {
      const present = value[key];
      if (present === undefined || present === "") errors[join(path, key)] = "Required.";
    }
    for (const [key, property] of Object.entries(schema.properties ?? {}))
      validate(property, value[key], join(path, key), errors);
    return errors;
  }
  if (type === "array" && Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors[path] = `At least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}.`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errors[path] = `At most ${schema.maxItems} items.`;
    value.forEach((item, index) => {
      if (schema.items) validate(schema.items, item, join(path, String(index)), errors);
    });
    return errors;
  }
  if (type === "integer" || type === "number") {
    if (typeof value !== "number" || Number.isNaN(value)) errors[path] = "Must be a number.";
    else if (type === "integer" && !Number.isInteger(value))
      errors[path] = "Must be a whole number.";
    else if (schema.minimum !== undefined && value < schema.minimum)
      errors[path] = `Must be at least ${schema.minimum}.`;
    else if (schema.maximum !== undefined && value > schema.maximum)
      errors[path] = `Must be at most ${schema.maximum}.`;
    return errors;
  }
  if (type === "string" && typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      errors[path] = `At least ${schema.minLength} characters.`;
    else if (schema.maxLength !== undefined && value.length > schema.maxLength)
      errors[path] = `At most ${schema.maxLength} characters.`;
    else if (schema.pattern !== undefined && !safeRegExp(schema.pattern)?.test(value))
      errors[path] = `Must match ${schema.pattern}.`;
  }
  return errors;
}

/** Required fields left empty at the top level count too (validate skips undefined values). */
export function validateForm(schema: JsonSchema, value: unknown): Record<string, string> {
  const errors = validate(schema, value ?? {});
  if (typeOf(schema) === "object" && !isObject(value))
    for (const key of schema.required ?? []) errors[key] = "Required.";
  return errors;
}

/** The value without empty strings and empty optional objects, as the tool should get it. */
export function pruneEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruneEmpty);
  if (isObject(value)) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const pruned = pruneEmpty(item);
      if (pruned !== undefined && pruned !== "") result[key] = pruned;
    }
    return result;
  }
  return value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
}
