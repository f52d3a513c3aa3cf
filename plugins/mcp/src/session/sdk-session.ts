import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  ElicitationCompleteNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ResultSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Disposable } from "@pseudoclaude/core/plugin";
import { LegacyTaskPort } from "../tasks/legacy-task-port.js";
import { runsAsTask } from "../tasks/runs-as-task.js";
import { TaskCalls } from "../tasks/task-calls.js";
import { Connection } from "../wire/connection.js";
import { StdioProcessTransport } from "../wire/stdio-transport.js";
import type { HttpCallLane } from "./http-call-lane.js";
import {
  type CallOptions,
  type CompletionRequest,
  type CompletionResult,
  McpCallError,
  type McpSession,
  type RemoteCallResult,
  type ServerNotice,
  type ToolsPage,
} from "./mcp-session.js";
import { lenientToolsPage, toToolsPage } from "./parse-tools.js";
import type { RemoteSupport } from "./remote-support.js";
import { NO_SDK_TIMEOUT, withRequestSignal } from "./request-signal.js";
import { completionOf, progressOption, serverInfoOf, toRemoteCallResult } from "./results.js";
import { recoverSdkFailure, type SdkFailureContext } from "./sdk-request-failure.js";
import { closeReason, SessionEvents } from "./session-events.js";
import { type SessionRequestOptions, sessionRequest } from "./session-request.js";
import { mcpTraceFacts } from "./trace-facts.js";

/** A live SDK client session behind our McpSession interface. */
export class SdkSession implements McpSession {
  private readonly events = new SessionEvents();
  /**
   * Over stdio and Streamable HTTP, the connection above the transport: plain tools/call
   * requests are its own, the client's go through it. The legacy SSE transport is the client's
   * alone.
   */
  private readonly channel: Connection | undefined;
  private closing = false;
  /** Calls that run as MCP tasks, made on the first (see TaskCalls). */
  private taskCalls: TaskCalls | undefined;
  private taskPort: LegacyTaskPort | undefined;
  /** What a failed request is judged with (see recoverSdkFailure). */
  private readonly failures: SdkFailureContext;

  /**
   * Connect `client` over `transport` within `signal` (the connect budget) and return the
   * session; on failure both are closed and the SDK's error is rethrown as it came.
   */
  static async connect(
    server: { name: string; url?: string },
    client: Client,
    transport: Transport,
    signal: AbortSignal,
    reauthorize?: () => Promise<boolean>,
    /** A remote server's: see RemoteSupport (undefined for stdio). */
    remote?: RemoteSupport,
    /** Streamable HTTP: how the connection POSTs its own calls (see HttpCallLane). */
    lane?: HttpCallLane,
    /** Over stdio, the connection the dialer asked the era on. */
    connection?: Connection,
  ): Promise<SdkSession> {
    const session = new SdkSession(
      server.name,
      server.url,
      client,
      transport,
      reauthorize,
      remote,
      lane,
      connection,
    );
    try {
      await withRequestSignal(signal, (requestSignal) =>
        client.connect(session.channel ?? transport, {
          signal: requestSignal,
          timeout: NO_SDK_TIMEOUT,
        }),
      );
    } catch (error) {
      await session.closeQuietly();
      throw error;
    }
    return session;
  }

  private constructor(
    readonly serverName: string,
    /** The server's URL (HTTP transports), for traces. */
    private readonly url: string | undefined,
    private readonly client: Client,
    private readonly transport: Transport,
    /** Completes a new authorization when the server asks for one mid-session (step-up). */
    reauthorize?: () => Promise<boolean>,
    private readonly remote?: RemoteSupport,
    lane?: HttpCallLane,
    connection?: Connection,
  ) {
    this.failures = {
      serverName,
      transport,
      remote,
      reauthorize,
      sessionLost: (reason) => this.events.emit("closed", reason),
    };
    // Not the legacy SSE transport: its servers are few, and the SDK path serves them.
    this.channel =
      connection ??
      (transport instanceof StdioProcessTransport || remote?.carriesCalls(transport)
        ? new Connection(transport, lane)
        : undefined);
    // Set before connecting: a server may announce changed tools right after initialize.
    const events = this.events;
    client.setNotificationHandler(ToolListChangedNotificationSchema, events.toolsListChanged);
    client.setNotificationHandler(
      ResourceListChangedNotificationSchema,
      events.resourcesListChanged,
    );
    client.setNotificationHandler(PromptListChangedNotificationSchema, events.promptsListChanged);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, events.resourceUpdated);
    client.setNotificationHandler(
      ElicitationCompleteNotificationSchema,
      events.elicitationComplete,
    );
    client.onclose = () => {
      this.taskPort?.invalidate(new Error("connection closed"));
      if (this.closing) return;
      const exit = transport instanceof StdioProcessTransport ? transport.exitInfo : undefined;
      this.events.emit("closed", closeReason(exit));
    };
  }

  get protocolVersion(): string | undefined {
    return (this.transport as { protocolVersion?: string }).protocolVersion;
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
    // Parsed leniently: the SDK's listTools rejects the whole page when one tool is malformed.
    const result = await this.request(signal, (options) =>
      this.client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        lenientToolsPage,
        options,
      ),
    );
    return toToolsPage(result);
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RemoteCallResult> {
    const params: {
      name: string;
      arguments: Record<string, unknown>;
      _meta?: Record<string, unknown>;
    } = {
      name,
      arguments: args,
    };
    if (options.trace) {
      // The trace goes with the request on every transport (the MCP semantic conventions'
      // `params._meta`); the span learns which session and transport carried it.
      params._meta = { ...options.trace.headers };
      options.trace.setAttributes(this.traceFacts());
    }
    if (
      runsAsTask(
        options,
        this.client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined,
      )
    )
      return this.tasks().call(name, args, params._meta, options);
    // Progress needs the SDK's progress-token bookkeeping; plain calls take the channel.
    const channel = this.channel;
    if (channel && !options.onProgress) {
      // The channel removes its own abort listener when the call ends (the SDK does not, which
      // is what withRequestSignal is for), and listens with onAbort when it can.
      return toRemoteCallResult(await this.channelCall(channel, params, options));
    }
    const result = await this.request(options.signal, (request) =>
      this.client.callTool(params, CallToolResultSchema, {
        ...request,
        ...progressOption(options),
      }),
    );
    return toRemoteCallResult(result);
  }

  private tasks(): TaskCalls {
    this.taskCalls ??= new TaskCalls(this.serverName, () => {
      this.taskPort = new LegacyTaskPort(this.client, `mcp:${this.serverName}`);
      return this.taskPort;
    });
    return this.taskCalls;
  }

  /**
   * MCP client span attributes (semantic conventions), for the call's execute_tool span. What
   * they say is fixed once the session is connected, so they are worked out once.
   */
  private traceFacts(): Readonly<Record<string, string | number>> {
    this.facts ??= this.describeForTrace();
    return this.facts;
  }

  private facts: Record<string, string | number> | undefined;

  private describeForTrace(): Record<string, string | number> {
    return mcpTraceFacts({
      serverName: this.serverName,
      protocolVersion: this.protocolVersion,
      url: this.url,
      overStdio: this.transport instanceof StdioProcessTransport,
      sessionId: this.remote?.sessionIdOf(this.transport),
    });
  }

  async extensionRequest(method: string, params: Record<string, unknown>, signal: AbortSignal) {
    // ResultSchema keeps every field: the extension's code checks the shape.
    return (await this.request(signal, (options) =>
      this.client.request({ method, params }, ResultSchema, options),
    )) as Record<string, unknown>;
  }

  async listResources(cursor: string | undefined, signal: AbortSignal) {
    const result = await this.request(signal, (options) =>
      this.client.listResources(cursor === undefined ? undefined : { cursor }, options),
    );
    return {
      resources: result.resources as Array<Record<string, unknown>>,
      ...(result.nextCursor !== undefined ? { nextCursor: result.nextCursor } : {}),
    };
  }

  async readResource(uri: string, signal: AbortSignal) {
    const result = await this.request(signal, (options) =>
      this.client.readResource({ uri }, options),
    );
    return { contents: result.contents as Array<Record<string, unknown>> };
  }

  async listPrompts(cursor: string | undefined, signal: AbortSignal) {
    const result = await this.request(signal, (options) =>
      this.client.listPrompts(cursor === undefined ? undefined : { cursor }, options),
    );
    return {
      prompts: result.prompts as Array<Record<string, unknown>>,
      ...(result.nextCursor !== undefined ? { nextCursor: result.nextCursor } : {}),
    };
  }

  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal) {
    return (await this.request(signal, (options) =>
      this.client.getPrompt({ name, arguments: args }, options),
    )) as Record<string, unknown>;
  }

  async listResourceTemplates(cursor: string | undefined, signal: AbortSignal) {
    const result = await this.request(signal, (options) =>
      this.client.listResourceTemplates(cursor === undefined ? undefined : { cursor }, options),
    );
    return {
      resourceTemplates: result.resourceTemplates as Array<Record<string, unknown>>,
      ...(result.nextCursor !== undefined ? { nextCursor: result.nextCursor } : {}),
    };
  }

  async subscribeResource(uri: string, signal: AbortSignal): Promise<void> {
    await this.request(signal, (options) => this.client.subscribeResource({ uri }, options));
  }

  async unsubscribeResource(uri: string, signal: AbortSignal): Promise<void> {
    await this.request(signal, (options) => this.client.unsubscribeResource({ uri }, options));
  }

  async complete(request: CompletionRequest, signal: AbortSignal): Promise<CompletionResult> {
    const result = await this.request(signal, (options) => this.client.complete(request, options));
    return completionOf(result.completion);
  }

  onToolsChanged(listener: () => void): Disposable {
    return this.events.subscribe("tools-changed", listener);
  }

  onElicitationComplete(listener: (elicitationId: string) => void): Disposable {
    return this.events.subscribe("elicitation-complete", listener);
  }

  onNotice(listener: (notice: ServerNotice) => void): Disposable {
    return this.events.subscribe("notice", listener);
  }

  onClosed(listener: (reason: string) => void): Disposable {
    return this.events.subscribe("closed", listener);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    // Tell the server the session is over (HTTP DELETE); a server that does not support it is fine.
    await this.taskCalls?.close();
    this.taskPort?.invalidate(new Error("session closed"));
    await this.remote?.terminateSession(this.transport).catch(() => undefined);
    await this.closeQuietly();
    this.events.removeAllListeners();
  }

  /**
   * Close the client and the connection (or the transport the legacy SSE client has alone),
   * best effort: it may be gone already. A connection lent to this session is handed back.
   */
  private async closeQuietly(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await (this.channel ?? this.transport).close().catch(() => undefined);
  }

  /** One SDK request (see sessionRequest), failures as McpCallError. */
  private request<T>(
    signal: AbortSignal,
    run: (options: SessionRequestOptions) => Promise<T>,
  ): Promise<T> {
    return sessionRequest(signal, run, (error, again) =>
      recoverSdkFailure(error, again, this.failures),
    );
  }

  /** A tools/call through the channel; a failed send is judged as an SDK request's would be. */
  private async channelCall(
    channel: Connection,
    params: Record<string, unknown>,
    options: CallOptions,
    retried = false,
  ): Promise<unknown> {
    try {
      return await channel.request("tools/call", params, options);
    } catch (error) {
      if (error instanceof McpCallError) throw error;
      return recoverSdkFailure(
        error,
        retried ? undefined : () => this.channelCall(channel, params, options, true),
        this.failures,
      );
    }
  }
}
