import { type Client, LOG_LEVEL_META_KEY, type LoggingLevel } from "@modelcontextprotocol/client";
import { type Disposable, toDisposable } from "@pseudoclaude/core/plugin";
import {
  type CallOptions,
  type CompletionRequest,
  type CompletionResult,
  McpCallError,
  type McpSession,
  type RemoteCallResult,
  type ServerNotice,
  type ToolsPage,
} from "../mcp-session.js";
import { TASKS_EXTENSION } from "../tasks/client-task-calls.js";
import { runsAsTask } from "../tasks/runs-as-task.js";
import type { TaskCalls } from "../tasks/task-calls.js";
import type { Connection } from "../wire/connection.js";
import type { StdioProcessTransport } from "../wire/stdio-transport.js";
import { looseResult } from "./client-options.js";
import { ListenStream } from "./listen-stream.js";
import { toToolsPage } from "./parse-tools.js";
import { PlainCalls, type ToolCallParams } from "./plain-calls.js";
import { recoverFailure, type SessionRemote } from "./recover-failure.js";
import { completionOf, progressOption, serverInfoOf, toRemoteCallResult } from "./results.js";
import { closeReason, SessionEvents } from "./session-events.js";
import { callRequest, type SessionRequestOptions, sessionRequest } from "./session-request.js";
import { ToolListing, withoutUnmirrorableTools } from "./tool-listing.js";
import { mcpTraceFacts } from "./trace.js";

/** What a session is made with (client-connect.ts makes it). */
export interface SessionParts {
  serverName: string;
  client: Client;
  connection: Connection;
  /** `2026-07-28` (stateless, negotiated by `server/discover`) or 2025-11-25 (`initialize`). */
  modern: boolean;
  /** Ours over stdio, for how its process ended. */
  stdio?: Pick<StdioProcessTransport, "exitInfo">;
  /** A remote server's transport, URL and logins (undefined for stdio). */
  remote?: SessionRemote;
  /** Calls of tools that run as tasks (v1 tasks in 2025-11-25, the Tasks extension in 2026). */
  tasks: TaskCalls;
  /** `logging.level`: asked once in 2025-11-25, per call (the request's `_meta`) in 2026. */
  logLevel?: LoggingLevel;
}

/**
 * A live session on the official v2 client (`@modelcontextprotocol/client`), in either era,
 * over our connection (wire/connection.ts). Plain tool calls are the connection's own, their
 * answers taken without the client's zod pass; everything else goes through the client.
 * In 2026-07-28 server requests arrive as `input_required` results that the client answers
 * through the same handlers as 2025's server requests, and `list_changed` comes over
 * `subscriptions/listen`.
 */
export class ClientSession implements McpSession {
  readonly serverName: string;
  private readonly client: Client;
  private readonly parts: SessionParts;
  private readonly events = new SessionEvents();
  private closing = false;
  private stream: ListenStream | undefined;
  /** Plain tool calls beside the client (see PlainCalls). */
  private plain: PlainCalls | undefined;
  /** The tools as listed, for calls, and how long the listing is fresh. */
  private readonly listing = new ToolListing(() => this.events.emit("tools-changed"));
  private facts: Record<string, string | number> | undefined;

  constructor(parts: SessionParts) {
    this.parts = parts;
    this.serverName = parts.serverName;
    this.client = parts.client;
    const { client } = parts;
    const events = this.events;
    // Set before connecting: a server may announce changed tools right after initialize.
    client.setNotificationHandler("notifications/tools/list_changed", events.toolsListChanged);
    client.setNotificationHandler(
      "notifications/resources/list_changed",
      events.resourcesListChanged,
    );
    client.setNotificationHandler("notifications/prompts/list_changed", events.promptsListChanged);
    client.setNotificationHandler("notifications/resources/updated", events.resourceUpdated);
    if (!parts.modern)
      client.setNotificationHandler(
        "notifications/elicitation/complete",
        events.elicitationComplete,
      );
    client.onclose = () => {
      if (this.closing) return;
      this.events.emit("closed", closeReason(parts.stdio?.exitInfo));
    };
  }

  /**
   * What follows the handshake: in 2026-07-28 `subscriptions/listen` for the lists that the
   * server says change (nothing is opened for a server whose lists never change, until a
   * resource is subscribed to); in 2025-11-25 the log level, once. Plain calls start then.
   */
  async ready(signal: AbortSignal): Promise<void> {
    const { connection, modern, remote, logLevel } = this.parts;
    this.plain = new PlainCalls(
      connection,
      modern && remote ? (name) => this.listing.mirrorsHeaders(name) : undefined,
    );
    if (!modern) {
      // A server that refuses is left at its own default; the session is no worse for it.
      if (logLevel && this.capabilities.logging)
        await this.request(signal, (options) =>
          this.client.setLoggingLevel(logLevel, options),
        ).catch(() => undefined);
      return;
    }
    const { tools, prompts, resources } = this.capabilities as {
      tools?: { listChanged?: boolean };
      prompts?: { listChanged?: boolean };
      resources?: { listChanged?: boolean };
    };
    this.stream = new ListenStream(this.client, {
      ...(tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(resources?.listChanged ? { resourcesListChanged: true } : {}),
    });
    await this.stream.listen(signal);
  }

  get protocolVersion(): string | undefined {
    return this.client.getNegotiatedProtocolVersion();
  }

  get serverInfo() {
    return serverInfoOf(this.client.getServerVersion());
  }

  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  get capabilities() {
    return (this.client.getServerCapabilities() ?? {}) as McpSession["capabilities"];
  }

  async listToolsPage(cursor: string | undefined, signal: AbortSignal): Promise<ToolsPage> {
    // On the connection, taken as it came: a page may hold thousands of tools, which the
    // client would process as a whole, and one malformed tool must not lose the page
    // (parse-tools.ts judges each).
    const result = (await this.plainRequest("tools/list", cursor === undefined ? {} : { cursor }, {
      signal,
    })) as { tools?: unknown; nextCursor?: string; ttlMs?: unknown };
    const page = toToolsPage(result);
    // 2025-11-25 has no list freshness and no parameters mirrored as headers: nothing to keep.
    if (!this.parts.modern) return page;
    if (cursor === undefined) this.listing.restart(result.ttlMs);
    if (this.parts.remote) withoutUnmirrorableTools(page);
    this.listing.keep(page);
    return page;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RemoteCallResult> {
    const params: ToolCallParams = { name, arguments: args };
    if (options.trace) {
      // The trace goes with the request on every transport (the MCP semantic conventions'
      // `params._meta`); the span learns which session and transport carried it.
      params._meta = { ...options.trace.headers };
      this.facts ??= this.describeForTrace();
      options.trace.setAttributes(this.facts);
    }
    const { modern, logLevel } = this.parts;
    if (modern && logLevel) params._meta = { ...params._meta, [LOG_LEVEL_META_KEY]: logLevel };
    if (this.runsAsTask(options)) return this.parts.tasks.call(name, args, params._meta, options);
    const plain = this.plain;
    if (plain?.carries(name, options)) {
      const answer = await this.plainRequest("tools/call", params, options);
      const result = plain.resultOf(name, answer);
      if (result) return result;
    }
    const result = await callRequest(
      options,
      (request) =>
        this.client.callTool(params, {
          ...request,
          ...this.listing.definitionOf(name),
          ...progressOption(options),
        }),
      (signal) => this.recovery(signal),
    );
    return toRemoteCallResult(result);
  }

  /**
   * 2025-11-25 lists task support per tool; 2026-07-28 does not: a server with the Tasks
   * extension may answer any call with a task, so every call to it can take one.
   */
  private runsAsTask(options: CallOptions): boolean {
    if (!this.parts.modern)
      return runsAsTask(
        options,
        this.client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined,
      );
    const { extensions } = this.capabilities as { extensions?: Record<string, unknown> };
    return extensions?.[TASKS_EXTENSION] !== undefined || runsAsTask(options, false);
  }

  /** A request on the connection; a failure is judged as a client request's would be. */
  private async plainRequest(
    method: string,
    params: Record<string, unknown>,
    cancel: Pick<CallOptions, "signal" | "onAbort">,
    retried = false,
  ): Promise<unknown> {
    try {
      return await this.parts.connection.request(method, params, cancel);
    } catch (error) {
      return recoverFailure(
        error,
        retried ? undefined : () => this.plainRequest(method, params, cancel, true),
        this.failureContext(cancel.signal),
      );
    }
  }

  private describeForTrace(): Record<string, string | number> {
    const { remote } = this.parts;
    return mcpTraceFacts({
      serverName: this.serverName,
      protocolVersion: this.protocolVersion,
      url: remote?.url,
      overStdio: !remote,
      sessionId: remote?.sessionId(),
    });
  }

  async listResources(cursor: string | undefined, signal: AbortSignal) {
    return (await this.request(signal, (options) =>
      this.client.request(
        { method: "resources/list", params: cursor === undefined ? {} : { cursor } },
        options,
      ),
    )) as { resources: Array<Record<string, unknown>>; nextCursor?: string };
  }

  async extensionRequest(method: string, params: Record<string, unknown>, signal: AbortSignal) {
    // Every field kept: the extension's code checks the shape.
    return (await this.request(signal, (options) =>
      this.client.request({ method, params }, looseResult, options),
    )) as Record<string, unknown>;
  }

  async readResource(uri: string, signal: AbortSignal) {
    return (await this.request(signal, (options) =>
      this.client.readResource({ uri }, options),
    )) as { contents: Array<Record<string, unknown>> };
  }

  async listPrompts(cursor: string | undefined, signal: AbortSignal) {
    return (await this.request(signal, (options) =>
      this.client.request(
        { method: "prompts/list", params: cursor === undefined ? {} : { cursor } },
        options,
      ),
    )) as { prompts: Array<Record<string, unknown>>; nextCursor?: string };
  }

  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal) {
    return (await this.request(signal, (options) =>
      this.client.getPrompt({ name, arguments: args }, options),
    )) as Record<string, unknown>;
  }

  async listResourceTemplates(cursor: string | undefined, signal: AbortSignal) {
    const result = (await this.request(signal, (options) =>
      this.client.request(
        { method: "resources/templates/list", params: cursor === undefined ? {} : { cursor } },
        options,
      ),
    )) as { resourceTemplates?: Array<Record<string, unknown>>; nextCursor?: string };
    return {
      resourceTemplates: result.resourceTemplates ?? [],
      ...(result.nextCursor !== undefined ? { nextCursor: result.nextCursor } : {}),
    };
  }

  /** In 2026-07-28 a resource subscription is a `subscriptions/listen` filter. */
  async subscribeResource(uri: string, signal: AbortSignal): Promise<void> {
    if (!this.parts.modern) {
      await this.request(signal, (options) => this.client.subscribeResource({ uri }, options));
      return;
    }
    const { resources } = this.capabilities as { resources?: { subscribe?: boolean } };
    if (!resources?.subscribe || !this.stream)
      throw new McpCallError(
        "protocol",
        `MCP server "${this.serverName}" does not offer resource subscriptions (its capabilities have no resources.subscribe).`,
      );
    await this.request(signal, (options) => this.stream!.watch(uri, options.signal));
  }

  async unsubscribeResource(uri: string, signal: AbortSignal): Promise<void> {
    if (!this.parts.modern) {
      await this.request(signal, (options) => this.client.unsubscribeResource({ uri }, options));
      return;
    }
    await this.stream?.unwatch(uri, signal).catch(() => undefined);
  }

  async complete(request: CompletionRequest, signal: AbortSignal): Promise<CompletionResult> {
    const result = await this.request(signal, (options) => this.client.complete(request, options));
    return completionOf((result as { completion?: unknown }).completion);
  }

  /** 2026-07-28 removed `elicitation/complete`: its URL elicitations are input_required. */
  onElicitationComplete(listener: (elicitationId: string) => void): Disposable {
    if (this.parts.modern) return toDisposable(() => undefined);
    return this.events.subscribe("elicitation-complete", listener);
  }

  onNotice(listener: (notice: ServerNotice) => void): Disposable {
    return this.events.subscribe("notice", listener);
  }

  onToolsChanged(listener: () => void): Disposable {
    return this.events.subscribe("tools-changed", listener);
  }

  onClosed(listener: (reason: string) => void): Disposable {
    return this.events.subscribe("closed", listener);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.parts.tasks.close();
    // Tell the server the session is over (HTTP DELETE); a server that does not support it is fine.
    await this.parts.remote?.terminate().catch(() => undefined);
    await this.closeQuietly();
    this.events.removeAllListeners();
  }

  /** Close the client and the connection, best effort: they may be gone already. */
  async closeQuietly(): Promise<void> {
    this.closing = true;
    this.listing.close();
    await this.parts.tasks.close();
    await this.stream?.close();
    await this.client.close().catch(() => undefined);
    await this.parts.connection.close().catch(() => undefined);
  }

  /** One client request (see sessionRequest), failures as McpCallError. */
  private request<T>(
    signal: AbortSignal,
    run: (options: SessionRequestOptions) => Promise<T>,
  ): Promise<T> {
    return sessionRequest(signal, run, this.recovery(signal));
  }

  private recovery<T>(signal: AbortSignal) {
    const context = this.failureContext(signal);
    return (error: unknown, again: (() => Promise<T>) | undefined): Promise<T> =>
      recoverFailure(error, again, context);
  }

  private failureContext(signal: AbortSignal) {
    return {
      serverName: this.serverName,
      signal,
      remote: this.parts.remote,
      sessionLost: (reason: string) => this.events.emit("closed", reason),
    };
  }
}
