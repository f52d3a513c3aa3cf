import type { JsonSchema } from "../contracts/tool-definition.js";
import { isPlainObject } from "../util/plain-object.js";

const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: "object" });

/**
 * The input schema as every model API needs it: arguments are always one JSON object, so a
 * missing or empty schema becomes `{ "type": "object" }`, one without a `type` gets
 * `"type": "object"`, and a schema for anything else (it could never describe the arguments)
 * becomes the plain object schema. Returns `schema` itself when it is already fine. The
 * registry applies it to every tool it accepts, so sources and providers need not.
 */
export function objectInputSchema(schema: unknown): JsonSchema {
  if (!isPlainObject(schema)) return { ...EMPTY_OBJECT_SCHEMA };
  if (schema.type === undefined) return { ...schema, type: "object" };
  if (schema.type !== "object") return { ...EMPTY_OBJECT_SCHEMA };
  return schema;
}
