/** A JSON value, as the Tasks library takes arguments, metadata and answers. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export type JsonObject = { readonly [key: string]: JsonValue };

/** An object as JSON: what JSON cannot hold is left out, as JSON.stringify would. */
export function jsonObject(value: Record<string, unknown>): JsonObject {
  const object: Record<string, JsonValue> = {};
  for (const [key, entry] of Object.entries(value)) {
    const json = jsonValue(entry);
    if (json !== undefined) object[key] = json;
  }
  return object;
}

function jsonValue(value: unknown): JsonValue | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((item) => jsonValue(item) ?? null);
  if (typeof value === "object") return jsonObject(value as Record<string, unknown>);
  return undefined;
}
