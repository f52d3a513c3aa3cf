/**
 * A small value that satisfies a JSON schema: what the replay server puts in
 * `structuredContent` for a tool that declares an output schema, since MCP clients check the
 * result against it and a canned text alone would fail the call. Covers what tool schemas use
 * (objects with required properties, arrays, scalars, enums, consts, unions by first branch).
 */
export function sampleValue(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return null;
  const s = schema as Record<string, unknown>;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ("default" in s) return s.default;
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0) return sampleValue(branches[0]);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      return Object.fromEntries(required.map((key) => [key, sampleValue(properties[key])]));
    }
    case "array": {
      const min = typeof s.minItems === "number" ? s.minItems : 0;
      return Array.from({ length: min }, () => sampleValue(s.items));
    }
    case "string":
      return "ok";
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 0;
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return typeof s.properties === "object" ? sampleValue({ ...s, type: "object" }) : null;
  }
}
