import { UsageError } from "@pseudoclaude/core";
import { type Disposable, toDisposable } from "@pseudoclaude/core/plugin";
import { EventEmitter } from "eventemitter3";
import { ServerLogs } from "./features/server-logs.js";
import { loginToServer } from "./manager/login-to-server.js";
import type { ServerConnection, ServerStats } from "./manager/server-connection.js";
import type { McpUsageErrorCode } from "./mcp-errors.js";
import type {
  McpLoginOptions,
  McpManager,
  McpPromptListing,
  McpResourceListing,
  McpResourceTemplateListing,
  McpServerReport,
} from "./mcp-manager.js";
import type { CompletionRequest, McpSession, ServerLogEntry, ServerNotice } from "./mcp-session.js";
import { type CredentialStore, defaultCredentialStore } from "./oauth/credential-store.js";

/**
 * The manager over the plugin's server connections: reports from their state and stats,
 * resources and prompts through their live sessions.
 */
export class DefaultMcpManager implements McpManager {
  private readonly events = new EventEmitter<{
    connections: [];
    notice: [string, ServerNotice];
  }>();

  constructor(
    private readonly connections: ReadonlyMap<string, ServerConnection>,
    /** Where logins store their tokens, and the client they say they are. */
    private readonly logins: {
      credentials: CredentialStore;
      clientInfo: { name: string; version: string };
    } = {
      credentials: defaultCredentialStore(),
      clientInfo: { name: "pseudoclaude", version: "0.1.0" },
    },
    private readonly logs: ServerLogs = new ServerLogs(),
  ) {
    for (const connection of connections.values()) {
      connection.on("state", () => this.events.emit("connections"));
      connection.on("notice", (notice) => this.events.emit("notice", connection.name, notice));
    }
  }

  servers(): McpServerReport[] {
    return [...this.connections.values()].map((connection) => this.report(connection));
  }

  private report(connection: ServerConnection): McpServerReport {
    const session = connection.activeSession;
    const report: McpServerReport = {
      name: connection.name,
      transport: connection.config.transport,
      state: connection.state,
      stats: { ...connection.stats },
    };
    if (connection.lastError) report.lastError = connection.lastError;
    if (session?.serverInfo)
      report.serverInfo = { name: session.serverInfo.name, version: session.serverInfo.version };
    if (session?.protocolVersion) report.protocolVersion = session.protocolVersion;
    const stderr = connection.stderrTail();
    if (stderr.length > 0) report.stderr = [...stderr];
    return report;
  }

  totals(): ServerStats {
    const total: ServerStats = {
      configured: 0,
      connected: 0,
      discovered: 0,
      adapted: 0,
      filtered: 0,
    };
    for (const connection of this.connections.values()) {
      for (const key of Object.keys(total) as Array<keyof ServerStats>)
        total[key] += connection.stats[key];
    }
    return total;
  }

  anyServerWith(capability: "resources" | "prompts"): boolean {
    return [...this.connections.values()].some(
      (connection) => connection.activeSession?.capabilities[capability] !== undefined,
    );
  }

  onConnectionsChanged(listener: () => void): Disposable {
    this.events.on("connections", listener);
    return toDisposable(() => this.events.off("connections", listener));
  }

  async login(server: string, options: McpLoginOptions): Promise<McpServerReport> {
    const connection = this.connection(server);
    const config = connection.config;
    if (config.transport === "stdio")
      throw new UsageError<McpUsageErrorCode>(
        "not_remote_server",
        `MCP server "${server}" runs over stdio; only http and sse servers log in.`,
      );
    await loginToServer(config, {
      credentials: this.logins.credentials,
      clientInfo: this.logins.clientInfo,
      show: options.show,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    const budget = AbortSignal.timeout(config.connectTimeoutMs);
    await connection.restart(options.signal ? AbortSignal.any([options.signal, budget]) : budget);
    return this.report(connection);
  }

  async reconnect(server: string, signal?: AbortSignal): Promise<McpServerReport> {
    const connection = this.connection(server);
    const budget = AbortSignal.timeout(connection.config.connectTimeoutMs);
    // A failure is in the report (state and lastError) and among the diagnostics already.
    await connection.restart(signal ? AbortSignal.any([signal, budget]) : budget).catch(() => {});
    return this.report(connection);
  }

  async listResources(
    server: string | undefined,
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<McpResourceListing> {
    return {
      servers: await this.fromEach<Omit<McpResourceListing["servers"][number], "server">>(
        this.pick(server, "resources"),
        signal,
        (session) => session.listResources(cursor, signal),
        (error) => ({ resources: [], error }),
      ),
    };
  }

  async readResource(server: string, uri: string, signal: AbortSignal) {
    const session = await this.connection(server).usableSession(signal);
    return session.readResource(uri, signal);
  }

  async listPrompts(
    server: string | undefined,
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<McpPromptListing> {
    return {
      servers: await this.fromEach<Omit<McpPromptListing["servers"][number], "server">>(
        this.pick(server, "prompts"),
        signal,
        (session) => session.listPrompts(cursor, signal),
        (error) => ({ prompts: [], error }),
      ),
    };
  }

  async listResourceTemplates(
    server: string | undefined,
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<McpResourceTemplateListing> {
    return {
      servers: await this.fromEach<Omit<McpResourceTemplateListing["servers"][number], "server">>(
        this.pick(server, "resources"),
        signal,
        (session) => session.listResourceTemplates(cursor, signal),
        (error) => ({ resourceTemplates: [], error }),
      ),
    };
  }

  async complete(server: string, request: CompletionRequest, signal: AbortSignal) {
    const session = await this.connection(server).usableSession(signal);
    return session.complete(request, signal);
  }

  subscribeResource(server: string, uri: string, signal: AbortSignal): Promise<void> {
    return this.connection(server).subscribeResource(uri, signal);
  }

  unsubscribeResource(server: string, uri: string, signal: AbortSignal): Promise<void> {
    return this.connection(server).unsubscribeResource(uri, signal);
  }

  onServerLog(listener: (server: string, entry: ServerLogEntry) => void): Disposable {
    return this.logs.subscribe(listener);
  }

  onServerNotice(listener: (server: string, notice: ServerNotice) => void): Disposable {
    this.events.on("notice", listener);
    return toDisposable(() => this.events.off("notice", listener));
  }

  async getPrompt(server: string, name: string, args: Record<string, string>, signal: AbortSignal) {
    const session = await this.connection(server).usableSession(signal);
    return session.getPrompt(name, args, signal);
  }

  /** The connection of the server named `name`; a UsageError naming the configured ones if none. */
  connection(name: string): ServerConnection {
    const connection = this.connections.get(name);
    if (!connection) {
      throw new UsageError<McpUsageErrorCode>(
        "unknown_server",
        `No MCP server named "${name}" (configured: ${[...this.connections.keys()].join(", ") || "none"}).`,
      );
    }
    return connection;
  }

  /**
   * One listing per server, one server after another; a server that cannot answer gets
   * `failed(message)` so one broken server does not hide the others.
   */
  private async fromEach<T extends object>(
    connections: ServerConnection[],
    signal: AbortSignal,
    list: (session: McpSession) => Promise<T>,
    failed: (message: string) => T,
  ): Promise<Array<{ server: string } & T>> {
    const out: Array<{ server: string } & T> = [];
    for (const connection of connections) {
      try {
        const session = await connection.usableSession(signal);
        out.push({ server: connection.name, ...(await list(session)) });
      } catch (error) {
        out.push({ server: connection.name, ...failed((error as Error).message) });
      }
    }
    return out;
  }

  private pick(
    server: string | undefined,
    capability: "resources" | "prompts",
  ): ServerConnection[] {
    if (server !== undefined) return [this.connection(server)];
    return [...this.connections.values()].filter(
      (connection) => connection.activeSession?.capabilities[capability] !== undefined,
    );
  }
}
