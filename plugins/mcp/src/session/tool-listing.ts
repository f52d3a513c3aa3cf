import type { Tool } from "@modelcontextprotocol/client";
import type { ToolsPage } from "../mcp-session.js";

/** A list is not asked for more often than this, whatever `ttlMs` it came with. */
const MIN_RELIST_MS = 1_000;
/** The longest freshness honoured, as the v2 client clamps it (24 h). */
const MAX_CACHE_TTL_MS = 24 * 60 * 60 * 1_000;

/**
 * What a 2026-07-28 session keeps of its tool listing: the tools as the server listed them,
 * and how long the listing is fresh.
 */
export class ToolListing {
  /**
   * The tools as the server listed them, by name: a call hands the v2 client its tool, whose
   * `x-mcp-header` parameters become `Mcp-Param-*` headers over HTTP (we list with our own
   * pagination guard, so the client has no listing of its own to take them from).
   */
  private readonly listed = new Map<string, Tool>();
  /** Whether a listed tool declares `x-mcp-header` parameters, worked out on its first call. */
  private readonly mirroring = new Map<string, boolean>();
  /** Lists the tools again once the last listing's `ttlMs` has run out. */
  private stale: NodeJS.Timeout | undefined;
  private closed = false;

  /** `expired` is called when the listing's freshness runs out: the tools are listed again. */
  constructor(private readonly expired: () => void) {}

  /** A listing starts over (its first page): the tools of the last one are forgotten. */
  restart(ttlMs: unknown): void {
    this.listed.clear();
    this.mirroring.clear();
    this.expireAfter(ttlMs);
  }

  /**
   * Keep the tools of one page (checked and converted by parse-tools.ts) as the client takes
   * them: their name and input schema, whose `x-mcp-header` parameters it mirrors; without
   * the outputSchema, which the client would check results against (the tool adapter does,
   * as `mcp_output_invalid`).
   */
  keep(page: ToolsPage): void {
    for (const tool of page.tools)
      this.listed.set(tool.name, {
        name: tool.name,
        inputSchema: { ...tool.inputSchema, type: "object" },
      });
  }

  /** The v2 client's call option that hands it the tool as listed, when it was. */
  definitionOf(name: string): { toolDefinition?: Tool } {
    const tool = this.listed.get(name);
    return tool ? { toolDefinition: tool } : {};
  }

  /**
   * Whether a call of `name` may mirror parameters as `Mcp-Param-*` headers over HTTP: its
   * listed schema declares `x-mcp-header` somewhere, or it was not listed (nothing to tell).
   */
  mirrorsHeaders(name: string): boolean {
    let mirrors = this.mirroring.get(name);
    if (mirrors === undefined) {
      const tool = this.listed.get(name);
      mirrors = !tool || JSON.stringify(tool.inputSchema ?? {}).includes('"x-mcp-header"');
      this.mirroring.set(name, mirrors);
    }
    return mirrors;
  }

  /** No listing expires after this. */
  close(): void {
    this.closed = true;
    clearTimeout(this.stale);
  }

  /**
   * A tool list is fresh for its `ttlMs` (2026-07-28 caching): after that it is listed again, as
   * after a `list_changed`. `0`, the SDK's default, promises nothing: the list is kept until a
   * `list_changed` or a reconnect, not asked for again and again. Bounded to 1 s - 24 h.
   */
  private expireAfter(ttlMs: unknown): void {
    clearTimeout(this.stale);
    this.stale = undefined;
    if (typeof ttlMs !== "number" || !(ttlMs > 0) || this.closed) return;
    const delay = Math.min(Math.max(ttlMs, MIN_RELIST_MS), MAX_CACHE_TTL_MS);
    this.stale = setTimeout(this.expired, delay);
    this.stale.unref();
  }
}

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
