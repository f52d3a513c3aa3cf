import {
  type CompleteRequestParams,
  type CompleteResult,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  UriTemplate,
} from "@modelcontextprotocol/server";
import type { Disposable } from "@pseudoclaude/core/plugin";
import { fullToolName, type McpManager } from "@pseudoclaude/plugin-mcp";
import { EventEmitter } from "eventemitter3";
import { exportedAppUri, isAppUri, upstreamAppUri } from "./app-views.js";
import { ExportedNames } from "./exported-names.js";
import type { ExposureTest } from "./exposure.js";
import type { GatewaySettings } from "./gateway-section.js";

/** How a re-exported resource's URI says which server it is from, when it must. */
export const UPSTREAM_URI_SCHEME = "pseudoclaude+mcp";

/** An upstream server's log message as the gateway passes it on. */
export interface UpstreamLog {
  level: string;
  logger: string;
  data: unknown;
}

/** Pages of one upstream list the gateway follows before it stops. */
const MAX_PAGES = 20;

/**
 * The upstream MCP servers' resources and prompts, re-exported. Prompts are named as tools
 * are (`mcp__<server>__<prompt>`, then `gateway.rename`, then the kernel's name rule). A
 * resource keeps its URI when only one server lists it; URIs two servers share become
 * `pseudoclaude+mcp://<server>/<uri>`. An MCP App's view (`ui://…`) is always served as
 * `ui://mcp.<server>/…` (see app-views.ts). A server's resources and prompts are exposed when
 * `gateway.expose` would expose a tool of that server.
 */
export class UpstreamFeatures extends EventEmitter<{
  "resources-changed": [];
  "prompts-changed": [];
  "resource-updated": [string];
  /** An exposed server's log message, redacted, its logger named after the server. */
  log: [UpstreamLog];
}> {
  private readonly names: ExportedNames;
  /** Exported URI → server and upstream URI, learnt from each listing. */
  private readonly routes = new Map<string, { server: string; uri: string }>();
  private templates: Array<{ server: string; template: UriTemplate }> = [];
  private prompts = new Map<string, { server: string; name: string }>();
  /**
   * Exported URI → the upstream resource and who subscribed to it. One upstream subscription
   * serves every client; it ends with the last of them.
   */
  private readonly subscriptions = new Map<
    string,
    { server: string; uri: string; subscribers: Set<object> }
  >();
  private readonly subscription: Disposable;
  private readonly logSubscription: Disposable;
  /** `gateway.apps`: MCP App views (`ui://`) are listed and read; otherwise they are not. */
  private readonly apps: boolean;

  constructor(
    private readonly manager: McpManager,
    private readonly exposed: ExposureTest,
    settings: Pick<GatewaySettings, "rename"> & Partial<Pick<GatewaySettings, "apps">>,
  ) {
    super();
    this.names = new ExportedNames(settings.rename);
    this.apps = settings.apps ?? false;
    this.subscription = manager.onServerNotice((server, notice) => {
      if (!this.serverExposed(server)) return;
      if (notice.kind === "resource-updated") {
        for (const [exported, entry] of this.subscriptions)
          if (entry.server === server && entry.uri === notice.uri)
            this.emit("resource-updated", exported);
      } else this.emit(notice.kind);
    });
    this.logSubscription = manager.onServerLog((server, entry) => {
      if (!this.serverExposed(server)) return;
      this.emit("log", {
        level: entry.level,
        logger: entry.logger ? `${server}/${entry.logger}` : server,
        data: entry.data,
      });
    });
  }

  /** Whether any connected upstream server offers resources (or prompts). */
  offers(capability: "resources" | "prompts"): boolean {
    return this.manager.anyServerWith(capability);
  }

  async listResources(signal: AbortSignal): Promise<ListResourcesResult> {
    const perServer = await this.collect(
      (server, cursor) => this.manager.listResources(server, cursor, signal),
      (entry) => entry.resources,
    );
    const counts = new Map<string, number>();
    for (const { item } of perServer) {
      const uri = String(item.uri);
      counts.set(uri, (counts.get(uri) ?? 0) + 1);
    }
    const resources: ListResourcesResult["resources"] = [];
    for (const { server, item } of perServer) {
      const uri = String(item.uri);
      if (isAppUri(uri) && !this.apps) continue;
      const exported = isAppUri(uri)
        ? exportedAppUri(server, uri)
        : (counts.get(uri) ?? 0) > 1
          ? namespaced(server, uri)
          : uri;
      this.routes.set(exported, { server, uri });
      resources.push({ ...item, uri: exported } as ListResourcesResult["resources"][number]);
    }
    return { resources };
  }

  async listResourceTemplates(signal: AbortSignal): Promise<ListResourceTemplatesResult> {
    const perServer = await this.collect(
      (server, cursor) => this.manager.listResourceTemplates(server, cursor, signal),
      (entry) => entry.resourceTemplates,
    );
    this.templates = [];
    const resourceTemplates: ListResourceTemplatesResult["resourceTemplates"] = [];
    for (const { server, item } of perServer) {
      const uriTemplate = String(item.uriTemplate);
      try {
        this.templates.push({ server, template: new UriTemplate(uriTemplate) });
      } catch {
        continue;
      }
      resourceTemplates.push(item as ListResourceTemplatesResult["resourceTemplates"][number]);
    }
    return { resourceTemplates };
  }

  async readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    const route = await this.route(uri, signal);
    const read = await this.manager.readResource(route.server, route.uri, signal);
    return {
      contents: read.contents.map((content) =>
        content.uri === route.uri ? { ...content, uri } : content,
      ),
    } as ReadResourceResult;
  }

  async listPrompts(signal: AbortSignal): Promise<ListPromptsResult> {
    const perServer = await this.collect(
      (server, cursor) => this.manager.listPrompts(server, cursor, signal),
      (entry) => entry.prompts,
    );
    const full = perServer.map(({ server, item }) => fullToolName(server, String(item.name)));
    const names = this.names.assign(full);
    const prompts: ListPromptsResult["prompts"] = [];
    this.prompts = new Map();
    perServer.forEach(({ server, item }, index) => {
      const exported = names.get(full[index] as string) as string;
      this.prompts.set(exported, { server, name: String(item.name) });
      prompts.push({ ...item, name: exported } as ListPromptsResult["prompts"][number]);
    });
    return { prompts };
  }

  async getPrompt(
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<GetPromptResult> {
    if (!this.prompts.has(name)) await this.listPrompts(signal);
    const prompt = this.prompts.get(name);
    if (!prompt)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return (await this.manager.getPrompt(
      prompt.server,
      prompt.name,
      args,
      signal,
    )) as GetPromptResult;
  }

  /**
   * `completion/complete` for an exported prompt (by its exported name) or resource template
   * (by its template, or a URI it matches), asked of the server it comes from.
   */
  async complete(params: CompleteRequestParams, signal: AbortSignal): Promise<CompleteResult> {
    const { ref, argument } = params;
    const context = params.context?.arguments ? { arguments: params.context.arguments } : undefined;
    let server: string;
    let upstreamRef: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
    if (ref.type === "ref/prompt") {
      if (!this.prompts.has(ref.name)) await this.listPrompts(signal);
      const prompt = this.prompts.get(ref.name);
      if (!prompt)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`);
      server = prompt.server;
      upstreamRef = { type: "ref/prompt", name: prompt.name };
    } else {
      if (this.templates.length === 0) await this.listResourceTemplates(signal);
      const owners = new Set(
        this.templates
          .filter(({ template }) => template.toString() === ref.uri)
          .map(({ server }) => server),
      );
      if (owners.size === 1) {
        server = [...owners][0] as string;
        upstreamRef = { type: "ref/resource", uri: ref.uri };
      } else {
        const route = await this.route(ref.uri, signal);
        server = route.server;
        upstreamRef = { type: "ref/resource", uri: route.uri };
      }
    }
    const completion = await this.manager.complete(
      server,
      { ref: upstreamRef, argument, ...(context ? { context } : {}) },
      signal,
    );
    return { completion: { ...completion } };
  }

  /** `subscriber` (a client connection) wants `resources/updated` for an exported URI. */
  async subscribe(subscriber: object, uri: string, signal: AbortSignal): Promise<void> {
    const existing = this.subscriptions.get(uri);
    if (existing) {
      existing.subscribers.add(subscriber);
      return;
    }
    const route = await this.route(uri, signal);
    await this.manager.subscribeResource(route.server, route.uri, signal);
    const entry = this.subscriptions.get(uri);
    if (entry) entry.subscribers.add(subscriber);
    else this.subscriptions.set(uri, { ...route, subscribers: new Set([subscriber]) });
  }

  async unsubscribe(subscriber: object, uri: string, signal: AbortSignal): Promise<void> {
    const entry = this.subscriptions.get(uri);
    if (!entry?.subscribers.delete(subscriber) || entry.subscribers.size > 0) return;
    this.subscriptions.delete(uri);
    await this.manager.unsubscribeResource(entry.server, entry.uri, signal);
  }

  /** Whether `subscriber` asked for updates of this exported URI. */
  subscribed(subscriber: object, uri: string): boolean {
    return this.subscriptions.get(uri)?.subscribers.has(subscriber) ?? false;
  }

  /** A connection ended: its subscriptions end with it (upstream too, when it was the last). */
  forget(subscriber: object): void {
    for (const [uri, entry] of this.subscriptions)
      if (entry.subscribers.has(subscriber))
        void this.unsubscribe(subscriber, uri, AbortSignal.timeout(10_000)).catch(() => undefined);
  }

  close(): void {
    this.subscription.dispose();
    this.logSubscription.dispose();
    this.removeAllListeners();
  }

  /** The server (and its URI) a client's URI is read from; no view unless apps are on. */
  private async route(uri: string, signal: AbortSignal): Promise<{ server: string; uri: string }> {
    // Without apps a view is refused as such, whichever address names it.
    const notServed = () =>
      new ProtocolError(
        ProtocolErrorCode.ResourceNotFound,
        `Resource not found: ${uri} (MCP App views are served only with gateway.apps: true)`,
        { uri },
      );
    if (!this.apps && upstreamAppUri(uri)) throw notServed();
    const route = await this.findRoute(uri, signal);
    if (!this.apps && isAppUri(route.uri)) throw notServed();
    return route;
  }

  private async findRoute(uri: string, signal: AbortSignal) {
    // A view is read from its server even when the server does not list it (a tool names it).
    const view = upstreamAppUri(uri);
    if (view && this.apps && this.serverExposed(view.server)) return view;
    let route = this.routes.get(uri);
    if (!route) {
      await this.listResources(signal);
      route = this.routes.get(uri);
    }
    if (route) return route;
    const prefix = `${UPSTREAM_URI_SCHEME}://`;
    if (uri.startsWith(prefix)) {
      const rest = uri.slice(prefix.length);
      const slash = rest.indexOf("/");
      const server = rest.slice(0, slash);
      if (slash > 0 && this.serverExposed(server)) return { server, uri: rest.slice(slash + 1) };
    }
    if (this.templates.length === 0) await this.listResourceTemplates(signal);
    const matching = new Set(
      this.templates.filter(({ template }) => template.match(uri)).map(({ server }) => server),
    );
    if (matching.size === 1) return { server: [...matching][0] as string, uri };
    throw new ProtocolError(
      ProtocolErrorCode.ResourceNotFound,
      matching.size > 1
        ? `Resource ${uri} matches templates of several servers (${[...matching].join(", ")}); read it as ${UPSTREAM_URI_SCHEME}://<server>/${uri}.`
        : `Resource not found: ${uri}`,
      { uri },
    );
  }

  private serverExposed(server: string): boolean {
    return this.exposed({
      name: fullToolName(server, ""),
      source: `mcp:${server}`,
      description: "",
      inputSchema: {},
      safety: "side_effect",
    });
  }

  /** Every exposed server's items, following each server's cursors. */
  private async collect<
    Entry extends { server: string; nextCursor?: string; error?: string },
    Item extends Record<string, unknown>,
  >(
    page: (server: string | undefined, cursor: string | undefined) => Promise<{ servers: Entry[] }>,
    items: (entry: Entry) => Item[],
  ): Promise<Array<{ server: string; item: Item }>> {
    const found: Array<{ server: string; item: Item }> = [];
    const take = (entry: Entry) => {
      for (const item of items(entry)) found.push({ server: entry.server, item });
    };
    const first = await page(undefined, undefined);
    for (const entry of first.servers) {
      if (entry.error || !this.serverExposed(entry.server)) continue;
      take(entry);
      let cursor = entry.nextCursor;
      for (let pages = 1; cursor && pages < MAX_PAGES; pages++) {
        const next = (await page(entry.server, cursor)).servers[0];
        if (!next || next.error) break;
        take(next);
        cursor = next.nextCursor;
      }
    }
    return found;
  }
}

function namespaced(server: string, uri: string): string {
  return `${UPSTREAM_URI_SCHEME}://${server}/${uri}`;
}
