import type { ToolsPage } from "./mcp-session.js";

/**
 * The 2026-07-28 rules for `x-mcp-header` in a tool's `inputSchema` (Streamable HTTP, "Custom
 * Headers from Tool Parameters"): the parameters a client mirrors as `Mcp-Param-*` headers. A
 * tool whose declarations break them cannot be called as its server expects, so an HTTP client
 * MUST leave it out, keeping the server's other tools. The v2 client applies these rules only to
 * its own aggregated listing; we list page by page with our own guards, so we apply them here.
 */

const KEY = "x-mcp-header";

/** RFC 9110 `token`: no spaces, control characters, non-ASCII or delimiters such as `:`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const PRIMITIVE = new Set(["string", "integer", "boolean"]);

/**
 * Places a declaration may not sit under (only a chain of `properties` reaches a parameter):
 * keywords whose value is a schema or a list of schemas, and those whose value maps names to
 * schemas.
 */
const UNREACHABLE = [
  "items",
  "prefixItems",
  "additionalProperties",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
];
const UNREACHABLE_MAPS = ["patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Why a tool's `x-mcp-header` declarations are invalid, or undefined when they are fine. */
export function xMcpHeaderFault(inputSchema: unknown): string | undefined {
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (node === null || typeof node !== "object") return undefined;
    const schema = node as Record<string, unknown>;
    const where = path.length > 0 ? path.join(".") : "(root)";
    if (KEY in schema) {
      const name = schema[KEY];
      if (!reachable || path.length === 0)
        return `${where}: x-mcp-header is allowed only on a parameter reached through "properties"`;
      if (typeof name !== "string" || name.length === 0)
        return `${where}: x-mcp-header must be a non-empty string`;
      if (!TOKEN.test(name))
        return `${where}: x-mcp-header "${name}" is not an HTTP token (no spaces, colons, control or non-ASCII characters)`;
      if (typeof schema.type !== "string" || !PRIMITIVE.has(schema.type))
        return `${where}: x-mcp-header is allowed only on a string, integer or boolean parameter`;
      const prior = seen.get(name.toLowerCase());
      if (prior !== undefined)
        return `${where}: x-mcp-header "${name}" repeats "${prior}" (names are compared ignoring case)`;
      seen.set(name.toLowerCase(), name);
    }
    const properties = schema.properties;
    if (properties !== null && typeof properties === "object")
      for (const [key, child] of Object.entries(properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault) return fault;
      }
    const branches = [
      ...UNREACHABLE.flatMap((keyword) => [schema[keyword]].flat().map((sub) => [keyword, sub])),
      ...UNREACHABLE_MAPS.flatMap((keyword) =>
        Object.values((schema[keyword] ?? {}) as object).map((sub) => [keyword, sub]),
      ),
    ] as Array<[string, unknown]>;
    for (const [keyword, branch] of branches) {
      const fault = visit(branch, [...path, keyword], false);
      if (fault) return fault;
    }
    return undefined;
  };
  return visit(inputSchema, [], true);
}

/** Tools whose `x-mcp-header` declarations break the rules move to the page's invalid ones. */
export function withoutUnmirrorableTools(page: ToolsPage): void {
  const invalid = page.invalid ?? [];
  page.tools = page.tools.filter((tool) => {
    const fault = xMcpHeaderFault(tool.inputSchema);
    if (fault) invalid.push({ name: tool.name, message: fault });
    return !fault;
  });
  if (invalid.length > 0) page.invalid = invalid;
}
