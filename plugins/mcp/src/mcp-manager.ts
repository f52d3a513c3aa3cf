import { type Disposable, toDisposable } from "@pseudoclaude/core/plugin";
import { EventEmitter } from "eventemitter3";
import type { ServerConnection, ServerStats } from "./manager/server-connection.js";

/** Per-server report for code and the CLI. */
export interface McpServerReport {
  name: string;
  transport: string;
  state: string;
  stats: ServerStats;
  lastError?: string;
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
}

/**
 * The plugin's API for code (resolve with the `McpManager` token): servers, their state and
 * stats, and their resources and prompts.
 */
export class McpManager {
  private readonly events = new EventEmitter<{ connections: [] }>();

  constructor(private readonly connections: ReadonlyMap<string, ServerConnection>) {
    for (const connection of connections.values())
      connection.on("state", () => this.events.emit("connections"));
  }

  servers(): McpServerReport[] {
    return [...this.connections.values()].map((connection) => {
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
      return report;
    });
  }

  /** Sum of every server's counters: the seed's totals. */
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

  async listResources(server: string | undefined, cursor: string | undefined, signal: AbortSignal) {
    const out: Array<{
      server: string;
      resources: Array<Record<string, unknown>>;
      nextCursor?: string;
      error?: string;
    }> = [];
    for (const connection of this.pick(server, "resources")) {
      try {
        const session = await connection.usableSession(signal);
        out.push({ server: connection.name, ...(await session.listResources(cursor, signal)) });
      } catch (error) {
        out.push({ server: connection.name, resources: [], error: (error as Error).message });
      }
    }
    return { servers: out };
  }

  async readResource(server: string, uri: string, signal: AbortSignal) {
    const session = await this.connection(server).usableSession(signal);
    return session.readResource(uri, signal);
  }

  async listPrompts(server: string | undefined, cursor: string | undefined, signal: AbortSignal) {
    const out: Array<{
      server: string;
      prompts: Array<Record<string, unknown>>;
      nextCursor?: string;
      error?: string;
    }> = [];
    for (const connection of this.pick(server, "prompts")) {
      try {
        const session = await connection.usableSession(signal);
        out.push({ server: connection.name, ...(await session.listPrompts(cursor, signal)) });
      } catch (error) {
        out.push({ server: connection.name, prompts: [], error: (error as Error).message });
      }
    }
    return { servers: out };
  }

  async getPrompt(server: string, name: string, args: Record<string, string>, signal: AbortSignal) {
    const session = await this.connection(server).usableSession(signal);
    return session.getPrompt(name, args, signal);
  }

  connection(name: string): ServerConnection {
    const connection = this.connections.get(name);
    if (!connection) {
      throw new Error(
        `No MCP server named "${name}" (configured: ${[...this.connections.keys()].join(", ") || "none"}).`,
      );
    }
    return connection;
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

/** DI token for {@link McpManager}. */
export const McpManagerToken = Symbol.for("@pseudoclaude/plugin-mcp:McpManager");
