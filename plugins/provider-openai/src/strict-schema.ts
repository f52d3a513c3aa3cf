import { isPlainObject, type JsonSchema } from "@pseudoclaude/core/plugin";

/**
 * Keywords strict mode cannot express: a schema that uses one is sent non-strict instead of
 * being weakened into something the registry's validation would disagree with.
 */
const UNREPRESENTABLE = new Set([
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "dependentSchemas",
  "dependentRequired",
  "dependencies",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "prefixItems",
  "contains",
  "minContains",
  "maxContains",
  "$dynamicRef",
  "$recursiveRef",
]);

/** Annotations with no meaning for the model that some strict validators reject. */
const DROPPED = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

class NotRepresentable extends Error {}

/**
 * The strict-mode form of a tool's input schema, or `undefined` when strict mode cannot
 * express it (free-form objects, `allOf`, `patternProperties` ...). Strict mode wants every
 * object closed (`additionalProperties: false`) with every property required, so optional
 * properties become required-but-nullable (see {@link removeAddedNulls} for the way back).
 * Value constraints (`minLength`, `pattern`, `maximum`, `default` ...) move into the
 * description: not every model takes them in strict mode, and the registry still enforces
 * them with the original schema. The input is never modified.
 */
export function toStrictSchema(schema: JsonSchema): JsonSchema | undefined {
  try {
    const root = convert(schema);
    if (!isObjectSchema(root)) return undefined;
    return root;
  } catch (error) {
    if (error instanceof NotRepresentable) return undefined;
    throw error;
  }
}

function convert(node: unknown): Record<string, unknown> {
  if (!isPlainObject(node)) throw new NotRepresentable();
  const out: Record<string, unknown> = {};
  const hints: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (UNREPRESENTABLE.has(key)) throw new NotRepresentable();
    if (DROPPED.has(key)) continue;
    switch (key) {
      case "type":
      case "enum":
      case "const":
      case "$ref":
      case "description":
        out[key] = structuredClone(value);
        break;
      case "properties":
      case "$defs":
      case "definitions":
        out[key] = mapValues(value, convert);
        break;
      case "items":
        // Tuple form (an array of schemas) is not in the strict subset.
        out.items = convert(value);
        break;
      case "anyOf":
      case "oneOf":
        // oneOf is not in the strict subset; anyOf admits at least as much, and the registry
        // still checks exactly-one with the original schema.
        if (!Array.isArray(value)) throw new NotRepresentable();
        out.anyOf = value.map(convert);
        break;
      case "required":
      case "additionalProperties":
        break; // Decided below, for objects.
      default:
        hints.push(`${key}: ${JSON.stringify(value)}`);
    }
  }
  if (out.type === undefined && out.properties !== undefined) out.type = "object";
  if (hasType(out, "object")) closeObject(node, out);
  else if (
    out.type === undefined &&
    out.anyOf === undefined &&
    out.$ref === undefined &&
    out.enum === undefined &&
    out.const === undefined
  ) {
    // "Any value" has no strict form.
    throw new NotRepresentable();
  }
  if (hints.length > 0) {
    const description = typeof out.description === "string" ? `${out.description} ` : "";
    out.description = `${description}(${hints.join(", ")})`;
  }
  return out;
}

function closeObject(original: Record<string, unknown>, out: Record<string, unknown>): void {
  const extra = original.additionalProperties;
  const properties = (out.properties ?? {}) as Record<string, Record<string, unknown>>;
  // An open map (`additionalProperties: true`, a schema, or no properties at all) would be
  // forced to `{}` by strict mode.
  if (extra !== undefined && extra !== false) throw new NotRepresentable();
  if (extra === undefined && Object.keys(properties).length === 0) throw new NotRepresentable();
  const required = new Set(Array.isArray(original.required) ? original.required : []);
  for (const [name, schema] of Object.entries(properties)) {
    if (!required.has(name)) properties[name] = nullable(schema);
  }
  out.properties = properties;
  out.required = Object.keys(properties);
  out.additionalProperties = false;
}

/** The schema that also admits `null`, which strict mode uses for "may be left out". */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  if (admitsNull(schema, {})) return schema;
  const type = schema.type;
  if (
    schema.$ref !== undefined ||
    schema.const !== undefined ||
    (type === undefined && schema.anyOf === undefined && schema.enum === undefined)
  ) {
    return { anyOf: [schema, { type: "null" }] };
  }
  const out = { ...schema };
  if (typeof type === "string") out.type = [type, "null"];
  else if (Array.isArray(type)) out.type = [...type, "null"];
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: "null" }];
  return out;
}

/**
 * Undo the nullable projection on the model's arguments: an optional property the model set
 * to `null` only because strict mode made it required is removed again, unless the tool's
 * own schema admits `null` there. The registry then validates against the original schema.
 */
export function removeAddedNulls(args: unknown, schema: JsonSchema): unknown {
  return strip(structuredClone(args), schema, schema, 0);
}

function strip(value: unknown, node: unknown, root: JsonSchema, depth: number): unknown {
  const schema = resolve(node, root);
  if (!schema || depth > 64) return value;
  if (isPlainObject(value)) {
    const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
    if (properties) {
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      for (const [key, item] of Object.entries(value)) {
        const property = properties[key];
        if (property === undefined) continue;
        if (item === null && !required.has(key) && !admitsNull(property, root)) delete value[key];
        else value[key] = strip(item, property, root, depth + 1);
      }
      return value;
    }
    const branch = objectBranch(schema, value, root);
    return branch ? strip(value, branch, root, depth + 1) : value;
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    return value.map((item) => strip(item, schema.items, root, depth + 1));
  }
  return value;
}

/** The `anyOf`/`oneOf` branch an object value belongs to: the first whose properties cover it. */
function objectBranch(
  schema: Record<string, unknown>,
  value: Record<string, unknown>,
  root: JsonSchema,
) {
  const branches = [schema.anyOf, schema.oneOf].filter(Array.isArray).flat() as unknown[];
  for (const branch of branches) {
    const resolved = resolve(branch, root);
    if (resolved && isPlainObject(resolved.properties)) {
      const properties = resolved.properties;
      if (Object.keys(value).every((key) => key in properties)) return resolved;
    }
  }
  return undefined;
}

function admitsNull(node: unknown, root: JsonSchema, depth = 0): boolean {
  const schema = resolve(node, root);
  if (!schema) return false;
  if (depth > 64) return true; // Give up keeping nulls out rather than loop.
  const type = schema.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if (schema.const === null) return true;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.some((branch) => admitsNull(branch, root, depth + 1)))
      return true;
  }
  // No type, no enum, no combinator: any value, null included.
  return (
    type === undefined &&
    schema.enum === undefined &&
    schema.const === undefined &&
    schema.anyOf === undefined &&
    schema.oneOf === undefined &&
    schema.allOf === undefined &&
    schema.$ref === undefined &&
    schema.properties === undefined
  );
}

/** Follow a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`); other refs are left alone. */
function resolve(node: unknown, root: JsonSchema): Record<string, unknown> | undefined {
  let current = node;
  for (
    let hops = 0;
    hops < 32 && isPlainObject(current) && typeof current.$ref === "string";
    hops++
  ) {
    const ref = current.$ref;
    if (!ref.startsWith("#")) return current;
    let target: unknown = root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
      target = isPlainObject(target) ? target[key] : undefined;
    }
    if (target === undefined) return current;
    current = target;
  }
  return isPlainObject(current) ? current : undefined;
}

function isObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === "object";
}

function hasType(schema: Record<string, unknown>, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

function mapValues(value: unknown, fn: (item: unknown) => Record<string, unknown>) {
  if (!isPlainObject(value)) throw new NotRepresentable();
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fn(item)]));
}
