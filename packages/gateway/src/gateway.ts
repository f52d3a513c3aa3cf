import { randomBytes } from "node:crypto";
import {
  createRequestStateCodec,
  type LoggingLevel,
  type McpRequestContext,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  Server,
  type ServerCapabilities,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Agent } from "@pseudoclaude/core";
import { MCP_LOG_LEVELS, McpManager } from "@pseudoclaude/plugin-mcp";
import { z } from "zod";
import { AuditLog } from "./audit-log.js";
import { type CallContext, clientHostsApps, type GatewayEra, who } from "./call-context.js";
import type { ClientApprovals } from "./client-approvals.js";
import { ExposedToolSearch } from "./exposed-tool-search.js";
import { exposureTest } from "./exposure.js";
import { APPROVAL_TTL_SECONDS, type ApprovalState, GatewayCalls } from "./gateway-calls.js";
import type { GatewaySettings } from "./gateway-section.js";
import { clientHasTasks, GatewayTasks, TASKS_EXTENSION, tasksRequired } from "./gateway-tasks.js";
import { GatewayTools } from "./gateway-tools.js";
import { SearchMode } from "./search-mode.js";
import { UpstreamFeatures, type UpstreamLog } from "./upstream-features.js";

/** What the gateway tells clients it is. */
export const GATEWAY_SERVER_NAME = "pseudoclaude-gateway";

export interface GatewayOptionsResolved {
  agent: Agent;
  settings: GatewaySettings;
  /** The agent's approver must be `approvals.approver` (see {@link ClientApprovals}). */
  approvals: ClientApprovals;
  version: string;
  /** Where the gateway reports what is not a client's business (a failed audit write). */
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * The agent's registry as MCP server instances: one per stdio connection or 2025-era HTTP
 * session, one per request on 2026-era HTTP (cheap: the handlers read shared state). Instances
 * that live on are kept, so a change in the registry reaches their clients as `list_changed`.
 */
export class Gateway {
  readonly tools: GatewayTools;
  readonly features: UpstreamFeatures | undefined;
  readonly audit: AuditLog | undefined;
  private readonly calls: GatewayCalls;
  /** Set in `expose_mode: search`: clients list two tools and find the rest through them. */
  private readonly search: SearchMode | undefined;
  private readonly tasks = new GatewayTasks();
  /** The level each live connection asked for; one that never asked hears no upstream logs. */
  private readonly logLevels = new WeakMap<Server, LoggingLevel>();
  private readonly live = new Set<Server>();
  /** Called when per-request (2026 HTTP) clients must hear of a change. */
  private readonly broadcasts = new Set<(what: "tools" | "resources" | "prompts") => void>();
  private readonly codec: RequestStateCodec<ApprovalState>;

  constructor(private readonly options: GatewayOptionsResolved) {
    const { agent, settings } = options;
    const manager = mcpManagerOf(agent);
    this.tools = new GatewayTools(agent, settings, () =>
      manager ? manager.servers().map((server) => server.name) : [],
    );
    this.audit = settings.audit ? new AuditLog(settings.audit, options.onError) : undefined;
    // A fresh key per start: a question asked before a restart cannot be answered after it.
    this.codec = createRequestStateCodec<ApprovalState>({
      key: randomBytes(32),
      ttlSeconds: APPROVAL_TTL_SECONDS,
    });
    this.calls = new GatewayCalls({
      agent,
      tools: this.tools,
      approvals: options.approvals,
      codec: this.codec,
      ask: settings.ask,
      exposeMode: settings.exposeMode,
      audit: this.audit,
      tasks: this.tasks,
    });
    this.search =
      settings.exposeMode === "search"
        ? new SearchMode(new ExposedToolSearch(this.tools), this.calls, settings.apps)
        : undefined;
    this.features = manager
      ? new UpstreamFeatures(manager, exposureTest(settings.expose), settings)
      : undefined;
    // In search mode what clients list never changes; the search follows the registry itself.
    if (!this.search) this.tools.on("changed", () => this.changed("tools"));
    this.features?.on("resources-changed", () => this.changed("resources"));
    this.features?.on("prompts-changed", () => this.changed("prompts"));
    this.features?.on("log", (log) => this.relayLog(log));
    this.features?.on("resource-updated", (uri) => {
      for (const server of this.live)
        if (this.features?.subscribed(server, uri))
          void server.sendResourceUpdated({ uri }).catch(() => {});
    });
  }

  /**
   * A server instance for one connection (`keep`: it lives on and hears of changes) or one
   * request. The SDK's serving entries call this with the era they found.
   */
  createServer(transport: CallContext["transport"], ctx: McpRequestContext, keep: boolean): Server {
    const era: GatewayEra = ctx.era === "modern" ? "2026-07-28" : "2025-11-25";
    const capabilities: ServerCapabilities = { tools: { listChanged: !this.search } };
    if (era === "2026-07-28") capabilities.extensions = { [TASKS_EXTENSION]: {} };
    if (this.features) {
      // Subscriptions need a connection to send updates on: 2026-era HTTP clients have none.
      capabilities.resources = { listChanged: true, subscribe: keep };
      capabilities.prompts = { listChanged: true };
      capabilities.completions = {};
      // Upstream logs go to clients that asked for them with logging/setLevel, on a connection
      // that lasts (2026-07-28 deprecates this logging, and has no connection to send on).
      if (keep) capabilities.logging = {};
    }
    const server = new Server(
      { name: GATEWAY_SERVER_NAME, version: this.options.version },
      {
        capabilities,
        requestState: { verify: (state, context) => this.codec.verify(state, context) },
      },
    );
    const where: CallContext = { transport, era, server };
    const modern = era === "2026-07-28";
    const search = this.search;
    server.setRequestHandler("tools/list", (_request, context) => ({
      tools: search ? search.list() : [...this.tools.list(clientHostsApps(context, server))],
    }));
    server.setRequestHandler("tools/call", (request, context) =>
      search
        ? search.call(request.params, context, where)
        : this.calls.call(request.params, context, where),
    );
    const features = this.features;
    if (features) {
      server.setRequestHandler("resources/list", (_request, context) =>
        features.listResources(context.mcpReq.signal),
      );
      server.setRequestHandler("resources/templates/list", (_request, context) =>
        features.listResourceTemplates(context.mcpReq.signal),
      );
      server.setRequestHandler("resources/read", (request, context) =>
        features.readResource(request.params.uri, context.mcpReq.signal),
      );
      server.setRequestHandler("prompts/list", (_request, context) =>
        features.listPrompts(context.mcpReq.signal),
      );
      server.setRequestHandler("prompts/get", (request, context) =>
        features.getPrompt(
          request.params.name,
          (request.params.arguments ?? {}) as Record<string, string>,
          context.mcpReq.signal,
        ),
      );
      server.setRequestHandler("completion/complete", (request, context) =>
        features.complete(request.params, context.mcpReq.signal),
      );
      if (keep) {
        server.setRequestHandler("logging/setLevel", (request) => {
          this.logLevels.set(server, request.params.level);
          return {};
        });
        server.setRequestHandler("resources/subscribe", async (request, context) => {
          await features.subscribe(server, request.params.uri, context.mcpReq.signal);
          return {};
        });
        server.setRequestHandler("resources/unsubscribe", async (request, context) => {
          await features.unsubscribe(server, request.params.uri, context.mcpReq.signal);
          return {};
        });
      }
    }
    if (modern) this.serveTasks(server);
    if (keep) {
      this.live.add(server);
      server.onclose = () => {
        this.live.delete(server);
        this.features?.forget(server);
      };
    }
    return server;
  }

  /**
   * `tasks/get` and `tasks/cancel` of the Tasks extension, for clients that declared it.
   * `tasks/update` finds no task waiting for input: the gateway asks its own question
   * (approval) before a task exists, and does not relay an upstream server's questions.
   */
  private serveTasks(server: Server): void {
    const params = z.object({ taskId: z.string() }).passthrough();
    const owner = (ctx: ServerContext) => who(ctx, server).principal;
    server.setRequestHandler("tasks/get", { params }, (request, ctx) => {
      if (!clientHasTasks(ctx)) throw tasksRequired("tasks/get");
      return { resultType: "complete", ...this.tasks.get(request.taskId, owner(ctx)) };
    });
    server.setRequestHandler("tasks/cancel", { params }, (request, ctx) => {
      if (!clientHasTasks(ctx)) throw tasksRequired("tasks/cancel");
      this.tasks.cancel(request.taskId, owner(ctx));
      return { resultType: "complete" };
    });
    server.setRequestHandler("tasks/update", { params }, (request, ctx) => {
      if (!clientHasTasks(ctx)) throw tasksRequired("tasks/update");
      const task = this.tasks.get(request.taskId, owner(ctx));
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Task ${task.taskId} is not waiting for input (it is ${task.status}).`,
        { taskId: task.taskId },
      );
    });
  }

  /** Tell per-request clients of changes (the 2026 HTTP handler's notifier). */
  onBroadcast(listener: (what: "tools" | "resources" | "prompts") => void): () => void {
    this.broadcasts.add(listener);
    return () => this.broadcasts.delete(listener);
  }

  /** Live connections (stdio, 2025-era HTTP sessions): for tests and shutdown. */
  get connections(): number {
    return this.live.size;
  }

  async close(): Promise<void> {
    this.tasks.close();
    this.tools.close();
    this.features?.close();
    await Promise.allSettled([...this.live].map((server) => server.close()));
    this.live.clear();
    await this.audit?.close();
  }

  private relayLog(log: UpstreamLog): void {
    const severity = MCP_LOG_LEVELS.indexOf(log.level as LoggingLevel);
    if (severity < 0) return;
    for (const server of this.live) {
      const level = this.logLevels.get(server);
      if (level === undefined || severity < MCP_LOG_LEVELS.indexOf(level)) continue;
      void server
        .sendLoggingMessage({
          level: log.level as LoggingLevel,
          logger: log.logger,
          data: log.data,
        })
        .catch(() => undefined);
    }
  }

  private changed(what: "tools" | "resources" | "prompts"): void {
    for (const server of this.live) {
      const sent =
        what === "tools"
          ? server.sendToolListChanged()
          : what === "resources"
            ? server.sendResourceListChanged()
            : server.sendPromptListChanged();
      void sent.catch(() => undefined);
    }
    for (const broadcast of this.broadcasts) broadcast(what);
  }
}

function mcpManagerOf(agent: Agent): McpManager | undefined {
  try {
    return agent.resolve<McpManager>(McpManager);
  } catch {
    return undefined;
  }
}
