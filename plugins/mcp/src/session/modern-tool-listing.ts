import type { ToolsPage } from "./mcp-session.js";

/** A list is not asked for more often than this, whatever `ttlMs` it came with. */
const MIN_RELIST_MS = 1_000;
/** The longest freshness honoured, as the v2 client clamps it (24 h). */
const MAX_CACHE_TTL_MS = 24 * 60 * 60 * 1_000;

/**
 * What a 2026-07-28 session keeps of its tool listing: the tools as the server listed them,
 * and how long the listing is fresh.
 */
export class ModernToolListing {
  /**
   * The tools as the server listed them, by name: a call hands the v2 client its tool, whose
   * `x-mcp-header` parameters become `Mcp-Param-*` headers over HTTP (we list with our own
   * pagination guard, so the client has no listing of its own to take them from).
   */
  private readonly listed = new Map<string, unknown>();
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

  /** Keep the raw tools of one page that the page kept (`tools` as the server sent them). */
  keep(tools: unknown, page: ToolsPage): void {
    if (!Array.isArray(tools)) return;
    const kept = new Set(page.tools.map((tool) => tool.name));
    for (const tool of tools) {
      const name = (tool as { name?: unknown })?.name;
      // Without its outputSchema: the v2 client would check results against it and throw a
      // protocol error; the tool adapter checks them (mcp_output_invalid).
      if (typeof name === "string" && kept.has(name))
        this.listed.set(name, { ...(tool as object), outputSchema: undefined });
    }
  }

  /** The v2 client's call option that hands it the tool as listed, when it was. */
  definitionOf(name: string): { toolDefinition?: never } {
    return this.listed.has(name) ? { toolDefinition: this.listed.get(name) as never } : {};
  }

  /**
   * Whether a call of `name` may mirror parameters as `Mcp-Param-*` headers over HTTP: its
   * listed schema declares `x-mcp-header` somewhere, or it was not listed (nothing to tell).
   */
  mirrorsHeaders(name: string): boolean {
    let mirrors = this.mirroring.get(name);
    if (mirrors === undefined) {
      const tool = this.listed.get(name) as { inputSchema?: unknown } | undefined;
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
