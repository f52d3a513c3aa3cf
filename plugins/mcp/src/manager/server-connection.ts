import { type Diagnostic, type Tool, ToolSourceError } from "@pseudoclaude/core";
import { errorMessage } from "@pseudoclaude/core/plugin";
import { EventEmitter } from "eventemitter3";
import type { RemoteCaller } from "../adapt/adapt-tool.js";
import type { McpServerConfig } from "../config/server-config.js";
import {
  type CallOptions,
  type ClientHandlers,
  McpCallError,
  type McpSession,
  type RemoteCallResult,
  type ServerNotice,
  type SessionDialer,
} from "../mcp-session.js";
import type { CredentialStore } from "../oauth/credential-store.js";
import type { Authorizer } from "../oauth/oauth-settings.js";
import { connectServer } from "./connect-server.js";
import { ListChangedFollower } from "./list-changed-follower.js";
import { ReconnectBackoff } from "./reconnect-backoff.js";
import { serverDiagnostic } from "./server-diagnostic.js";
import { ToolDiscovery } from "./tool-discovery.js";
import { finishUrlElicitations, urlElicitationsOf } from "./url-elicitation.js";

/** Where one server's connection is in its life. */
export type ConnectionState =
  | "idle"
  | "connecting"
  | "ready"
  | "failed"
  | "disconnected"
  /** A server of the workspace's files the user has not approved: never started. */
  | "needs-approval"
  /** An OAuth server nobody has logged in to: `pseudoclaude mcp login NAME`. */
  | "needs-auth"
  | "closed";

/** Counters for one server: configured, connected, discovered, adapted, filtered out. */
export interface ServerStats {
  configured: number;
  connected: number;
  discovered: number;
  adapted: number;
  filtered: number;
}

/** What a ServerConnection needs. */
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
  /** False for a server that needs the user's approval and has none: it is never dialed. */
  approved?: boolean;
  credentials?: CredentialStore;
  authorize?: Authorizer;
}

/** What a `ServerConnection` emits. */
export interface ConnectionEvents {
  tools: [readonly Tool[]];
  state: [ConnectionState];
  /** The server's resources or prompts changed (its list_changed). */
  notice: [ServerNotice];
}

/**
 * One configured server's state machine: connect at start (connectServer), follow list_changed
 * (ListChangedFollower, ToolDiscovery), and after the session dies reconnect on the next use
 * (ReconnectBackoff). Calls go through it so they always find a live session.
 */
export class ServerConnection extends EventEmitter<ConnectionEvents> implements RemoteCaller {
  state: ConnectionState = "idle";
  lastError: string | undefined;
  private session: McpSession | undefined;
  private connected = 0;
  private reconnecting: Promise<McpSession> | undefined;
  private readonly closeController = new AbortController();
  /** Resources subscribed to, made again on each new session. */
  private readonly subscriptions = new Set<string>();
  private readonly backoff: ReconnectBackoff;
  private readonly discovery: ToolDiscovery;
  private readonly follower: ListChangedFollower;

  constructor(private readonly options: ServerConnectionOptions) {
    super();
    this.backoff = new ReconnectBackoff(options.backoff);
    this.discovery = new ToolDiscovery({
      server: options.server,
      caller: this,
      pageCap: options.pageCap,
      report: options.report,
      onTools: (tools) => this.emit("tools", tools),
    });
    this.follower = new ListChangedFollower(options.debounceMs, () => this.relist());
  }

  get name(): string {
    return this.options.server.name;
  }

  get config(): McpServerConfig {
    return this.options.server;
  }

  get tools(): readonly Tool[] {
    return this.discovery.tools;
  }

  get stats(): ServerStats {
    return { configured: 1, connected: this.connected, ...this.discovery.counts };
  }

  get activeSession(): McpSession | undefined {
    return this.session;
  }

  /** What its stdio process last wrote to stderr, bounded; empty for remote servers. */
  stderrTail(): readonly string[] {
    return this.options.dialer.stderrTail?.() ?? [];
  }

  /** Connect and discover within the connect budget. Failures are reported, then rethrown. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.options.approved === false) {
      // Its command is a stranger's code until the user says otherwise: nothing is spawned.
      this.setState("needs-approval");
      return;
    }
    this.setState("connecting");
    try {
      const session = await this.connect(signal, true);
      if (this.discardIfClosed(session)) return;
      this.session = session;
      this.setState("ready");
    } catch (error) {
      this.lastError = errorMessage(error);
      if (ToolSourceError.is(error) && error.code === "needs_auth") {
        this.setState("needs-auth");
        return;
      }
      this.setState("failed");
      throw error;
    }
  }

  /**
   * Connect again once the user did what the server waited for (logged in): from needs-auth,
   * failed or disconnected; a server that is ready, connecting, closed or unapproved is left as
   * it is. Resolves with the state it ends in; a failure is reported, then rethrown.
   */
  async restart(signal: AbortSignal): Promise<ConnectionState> {
    if (this.state !== "needs-auth" && this.state !== "failed" && this.state !== "disconnected")
      return this.state;
    this.backoff.succeeded();
    await this.start(signal);
    return this.state;
  }

  /** Calls go through here so a dead session is replaced on the next use. */
  async call(
    remoteName: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RemoteCallResult> {
    // `options.signal` is made when read: a live session needs none.
    const session = this.session ?? (await this.usableSession(options.signal));
    try {
      return await session.callTool(remoteName, args, options);
    } catch (error) {
      if (error instanceof McpCallError && error.reason === "auth") throw this.authLost(session);
      // Pages the person must finish first (2025-11-25 URL elicitation): then once more.
      const pages = urlElicitationsOf(error);
      if (pages && !options.signal.aborted) {
        const { server, handlers } = this.options;
        if (await finishUrlElicitations(session, pages, server, handlers, options.signal))
          return session.callTool(remoteName, args, options);
        throw error;
      }
      // The server lost our session before running anything: once more, on a new session.
      if (!(error instanceof McpCallError) || !error.retryable || options.signal.aborted)
        throw error;
      const fresh = await this.usableSession(options.signal);
      return fresh.callTool(remoteName, args, options);
    }
  }

  /**
   * Subscribe to a resource; the subscription is made again on every new session (after a
   * reconnect), until unsubscribed.
   */
  async subscribeResource(uri: string, signal: AbortSignal): Promise<void> {
    const session = await this.usableSession(signal);
    await session.subscribeResource(uri, signal);
    this.subscriptions.add(uri);
  }

  async unsubscribeResource(uri: string, signal: AbortSignal): Promise<void> {
    this.subscriptions.delete(uri);
    await this.session?.unsubscribeResource(uri, signal);
  }

  /** A live session, reconnecting if allowed; throws McpCallError("session") otherwise. */
  async usableSession(signal: AbortSignal): Promise<McpSession> {
    if (this.session) return this.session;
    if (this.state === "closed")
      throw new McpCallError("session", `MCP server "${this.name}" is closed.`);
    if (this.state === "needs-auth")
      throw new McpCallError("auth", this.lastError ?? `MCP server "${this.name}" needs a login.`);
    if (this.state === "needs-approval")
      throw new McpCallError(
        "session",
        `MCP server "${this.name}" comes with the workspace and has not been approved, so it was not started.`,
      );
    const wait = this.backoff.waitMs();
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
    this.follower.stop();
    const session = this.session;
    this.session = undefined;
    await session?.close();
    this.removeAllListeners();
  }

  private async reconnect(signal: AbortSignal): Promise<McpSession> {
    this.setState("connecting");
    try {
      const session = await this.connect(signal, false);
      if (this.discardIfClosed(session))
        throw new McpCallError("session", `MCP server "${this.name}" is closed.`);
      this.session = session;
      this.backoff.succeeded();
      this.setState("ready");
      this.report("connect", "info", "reconnected", `Reconnected to MCP server "${this.name}".`);
      return session;
    } catch (error) {
      this.backoff.failed();
      this.lastError = errorMessage(error);
      this.setState("disconnected");
      throw new McpCallError(
        "session",
        `Reconnecting to MCP server "${this.name}" failed: ${this.lastError}`,
        { cause: error },
      );
    }
  }

  /** connectServer, then follow the new session's tool changes and its end. */
  private async connect(signal: AbortSignal, first: boolean): Promise<McpSession> {
    const { options } = this;
    const session = await connectServer({
      server: options.server,
      dialer: options.dialer,
      handlers: options.handlers,
      clientInfo: options.clientInfo,
      discovery: this.discovery,
      report: options.report,
      signal,
      closed: this.closeController.signal,
      first,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.authorize ? { authorize: options.authorize } : {}),
    });
    this.connected = 1;
    session.onToolsChanged(() => {
      if (this.state !== "closed") this.follower.schedule();
    });
    session.onNotice((notice) => {
      if (this.state !== "closed") this.emit("notice", notice);
    });
    // What the last session subscribed to, subscribed again (a failure is the server's to say).
    for (const uri of this.subscriptions)
      void session.subscribeResource(uri, this.closeController.signal).catch(() => undefined);
    session.onClosed((reason) => this.onSessionClosed(session, reason));
    return session;
  }

  /** Undefined when the tools are current; else once a list_changed has been listed again. */
  whenCurrent(): Promise<void> | undefined {
    return this.follower.whenSettled();
  }

  /**
   * The server refused our tokens mid-session and no refresh helped: stop using the session and
   * wait for a login (`needs-auth`), so later calls fail at once with the command to run
   * instead of each going to the server for another 401.
   */
  private authLost(session: McpSession): McpCallError {
    const message = `MCP server "${this.name}" needs you to log in again: it refused our tokens and they could not be refreshed. Run: pseudoclaude mcp login ${this.name}`;
    if (this.session === session) {
      this.session = undefined;
      void session.close().catch(() => undefined);
      this.lastError = message;
      this.setState("needs-auth");
      this.report("runtime", "info", "mcp_server_needs_auth", message);
    }
    return new McpCallError("auth", message);
  }

  /** A session that finished connecting after close() must not outlive it (a process leak). */
  private discardIfClosed(session: McpSession): boolean {
    if (this.state !== "closed") return false;
    void session.close().catch(() => undefined);
    return true;
  }

  private async relist(): Promise<void> {
    const session = this.session;
    if (!session || this.state === "closed") return;
    const budget = AbortSignal.any([
      this.closeController.signal,
      AbortSignal.timeout(this.options.server.connectTimeoutMs),
    ]);
    try {
      await this.discovery.discover(session, budget, false);
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
    this.options.report(serverDiagnostic(this.name, stage, severity, code, message));
  }
}
