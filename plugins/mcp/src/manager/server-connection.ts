import { type Diagnostic, errorMessage, type Tool } from "@pseudoclaude/core";
import { EventEmitter } from "eventemitter3";
import { adaptServerTools, unknownReadOnlyDeclarations } from "../adapt/adapt-server-tools.js";
import type { RemoteCaller } from "../adapt/adapt-tool.js";
import type { McpServerConfig } from "../config/server-config.js";
import { type McpServerErrorCode, ToolSourceError } from "../mcp-errors.js";
import {
  type CallOptions,
  type ClientHandlers,
  McpCallError,
  type McpSession,
  type RemoteCallResult,
  type SessionDialer,
} from "../session/mcp-session.js";
import { listAllTools } from "./list-all-tools.js";

export type ConnectionState =
  | "idle"
  | "connecting"
  | "ready"
  | "failed"
  | "disconnected"
  | "closed";

/** Counters for one server: configured, connected, discovered, adapted, filtered out. */
export interface ServerStats {
  configured: number;
  connected: number;
  discovered: number;
  adapted: number;
  filtered: number;
}

export interface ServerConnectionOptions {
  server: McpServerConfig;
  dialer: SessionDialer;
  handlers: ClientHandlers;
  clientInfo: { name: string; version: string };
  report: (diagnostic: Diagnostic) => void;
  pageCap: number;
  /** Wait after `list_changed` before re-listing, so a burst of notifications costs one listing. */
  debounceMs: number;
  backoff: { initialMs: number; maxMs: number };
}

interface ConnectionEvents {
  tools: [readonly Tool[]];
  state: [ConnectionState];
}

/**
 * One configured server: connect within the budget, discover, adapt; keep the session for
 * calls (it lives as long as the connection, not the connect budget: a stdio process ended with
 * the budget would make every tool found at start-up fail later); follow
 * list_changed; reconnect on the next use after the session dies, with backoff.
 */
export class ServerConnection extends EventEmitter<ConnectionEvents> implements RemoteCaller {
  state: ConnectionState = "idle";
  readonly stats: ServerStats = {
    configured: 1,
    connected: 0,
    discovered: 0,
    adapted: 0,
    filtered: 0,
  };
  lastError: string | undefined;
  private session: McpSession | undefined;
  private current: readonly Tool[] = [];
  private reconnecting: Promise<McpSession> | undefined;
  private retryAt = 0;
  private backoffMs = 0;
  private debounce: NodeJS.Timeout | undefined;
  private relisting: Promise<void> | undefined;
  private readonly closeController = new AbortController();

  constructor(private readonly options: ServerConnectionOptions) {
    super();
  }

  get name(): string {
    return this.options.server.name;
  }

  get config(): McpServerConfig {
    return this.options.server;
  }

  get tools(): readonly Tool[] {
    return this.current;
  }

  get activeSession(): McpSession | undefined {
    return this.session;
  }

  /** Connect and discover within the connect budget. Failures are reported, then rethrown. */
  async start(signal: AbortSignal): Promise<void> {
    this.setState("connecting");
    try {
      const session = await this.connect(signal, "start");
      if (this.discardIfClosed(session)) return;
      this.session = session;
      this.setState("ready");
    } catch (error) {
      this.lastError = errorMessage(error);
      this.setState("failed");
      throw error;
    }
  }

  /** Calls go through here so a dead session is replaced on the next use. */
  async call(
    remoteName: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RemoteCallResult> {
    const session = await this.usableSession(options.signal);
    try {
      return await session.callTool(remoteName, args, options);
    } catch (error) {
      // The server lost our session before running anything: once more, on a new session.
      if (!(error instanceof McpCallError) || !error.retryable || options.signal.aborted)
        throw error;
      const fresh = await this.usableSession(options.signal);
      return fresh.callTool(remoteName, args, options);
    }
  }

  /** A live session, reconnecting if allowed; throws McpCallError("session") otherwise. */
  async usableSession(signal: AbortSignal): Promise<McpSession> {
    if (this.session) return this.session;
    if (this.state === "closed")
      throw new McpCallError("session", `MCP server "${this.name}" is closed.`);
    const wait = this.retryAt - Date.now();
    if (wait > 0) {
      throw new McpCallError(
        "session",
        `MCP server "${this.name}" is not connected (${this.lastError ?? "unknown reason"}); next reconnect attempt in ${Math.ceil(wait / 1000)} s.`,
      );
    }
    this.reconnecting ??= this.reconnect(signal).finally(() => {
      this.reconnecting = undefined;
    });
    return this.reconnecting;
  }

  async close(): Promise<void> {
    this.setState("closed");
    this.closeController.abort(new Error("closed"));
    clearTimeout(this.debounce);
    const session = this.session;
    this.session = undefined;
    await session?.close();
    this.removeAllListeners();
  }

  private async reconnect(signal: AbortSignal): Promise<McpSession> {
    this.setState("connecting");
    try {
      const session = await this.connect(signal, "reconnect");
      if (this.discardIfClosed(session))
        throw new McpCallError("session", `MCP server "${this.name}" is closed.`);
      this.session = session;
      this.backoffMs = 0;
      this.retryAt = 0;
      this.setState("ready");
      this.options.report({
        stage: "connect",
        severity: "info",
        code: "reconnected",
        source: `mcp:${this.name}`,
        item: this.name,
        message: `Reconnected to MCP server "${this.name}".`,
      });
      return session;
    } catch (error) {
      const { initialMs, maxMs } = this.options.backoff;
      this.backoffMs = Math.min(maxMs, this.backoffMs === 0 ? initialMs : this.backoffMs * 2);
      this.retryAt = Date.now() + this.backoffMs;
      this.lastError = errorMessage(error);
      this.setState("disconnected");
      throw new McpCallError(
        "session",
        `Reconnecting to MCP server "${this.name}" failed: ${this.lastError}`,
        { cause: error },
      );
    }
  }

  /** Dial, list and adapt under one budget: spawn/connect + initialize + first tools/list. */
  private async connect(outer: AbortSignal, stage: "start" | "reconnect"): Promise<McpSession> {
    const { server } = this.options;
    const budget = AbortSignal.any([
      outer,
      this.closeController.signal,
      AbortSignal.timeout(server.connectTimeoutMs),
    ]);
    let session: McpSession;
    try {
      session = await this.options.dialer.dial(server, {
        signal: budget,
        clientInfo: this.options.clientInfo,
        handlers: this.options.handlers,
      });
    } catch (error) {
      this.report(
        "connect",
        "error",
        "connect_failed",
        `Cannot connect to MCP server "${server.name}": ${errorMessage(error)}`,
      );
      throw error;
    }
    try {
      await this.discover(session, budget, stage === "start");
    } catch (error) {
      await session.close().catch(() => undefined);
      const why =
        budget.aborted && !outer.aborted
          ? `no complete tools/list within the connect budget of ${server.connectTimeoutMs} ms`
          : errorMessage(error);
      this.report(
        "list_tools",
        "error",
        "list_tools_failed",
        `tools/list failed for MCP server "${server.name}": ${why}`,
      );
      throw new ToolSourceError<McpServerErrorCode>("list_tools_failed", why, { cause: error });
    }
    this.stats.connected = 1;
    session.onToolsChanged(() => this.scheduleRelist());
    session.onClosed((reason) => this.onSessionClosed(session, reason));
    return session;
  }

  private async discover(session: McpSession, signal: AbortSignal, first: boolean): Promise<void> {
    const listed = await listAllTools(session, signal, this.options.pageCap);
    for (const diagnostic of listed.diagnostics)
      this.options.report({ ...diagnostic, source: `mcp:${this.name}` });
    if (first)
      for (const diagnostic of unknownReadOnlyDeclarations(this.options.server, listed.tools))
        this.options.report(diagnostic);
    const adapted = adaptServerTools(this.options.server, listed.tools, this);
    for (const diagnostic of adapted.diagnostics) this.options.report(diagnostic);
    this.stats.discovered = listed.discovered;
    this.stats.adapted = adapted.tools.length;
    this.stats.filtered = adapted.filtered;
    this.current = adapted.tools;
    this.emit("tools", this.current);
  }

  /** A session that finished connecting after close() must not outlive it (a process leak). */
  private discardIfClosed(session: McpSession): boolean {
    if (this.state !== "closed") return false;
    void session.close().catch(() => undefined);
    return true;
  }

  private scheduleRelist(): void {
    if (this.state === "closed") return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      // One listing at a time; a notification during a listing schedules another.
      this.relisting = (this.relisting ?? Promise.resolve()).then(() => this.relist());
    }, this.options.debounceMs);
  }

  private async relist(): Promise<void> {
    const session = this.session;
    if (!session || this.state === "closed") return;
    const budget = AbortSignal.any([
      this.closeController.signal,
      AbortSignal.timeout(this.options.server.connectTimeoutMs),
    ]);
    try {
      await this.discover(session, budget, false);
    } catch (error) {
      if ((this.state as ConnectionState) === "closed") return;
      this.report(
        "list_tools",
        "warning",
        "relist_failed",
        `Re-listing tools of MCP server "${this.name}" after list_changed failed: ${errorMessage(error)}; kept the previous tools.`,
      );
    }
  }

  private onSessionClosed(session: McpSession, reason: string): void {
    if (this.session !== session || this.state === "closed") return;
    this.session = undefined;
    this.lastError = reason;
    // Release what is left of it (an HTTP client, a dead process's pipes); best effort.
    void session.close().catch(() => undefined);
    this.setState("disconnected");
    this.report(
      "runtime",
      "warning",
      "server_disconnected",
      `MCP server "${this.name}" disconnected (${reason}); it will be reconnected on the next call.`,
    );
  }

  private setState(state: ConnectionState): void {
    if (this.state === "closed" && state !== "closed") return;
    this.state = state;
    this.emit("state", state);
  }

  private report(
    stage: string,
    severity: Diagnostic["severity"],
    code: string,
    message: string,
  ): void {
    this.options.report({
      stage,
      severity,
      code,
      source: `mcp:${this.name}`,
      item: this.name,
      message,
    });
  }
}
