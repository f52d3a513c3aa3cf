import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { type Disposable, toDisposable } from "@pseudoclaude/core/plugin";
import type { McpServerConfig } from "../config/server-config.js";
import { modernTaskCalls, TASKS_EXTENSION } from "../tasks/modern-task-calls.js";
import { runsAsTask } from "../tasks/runs-as-task.js";
import type { TaskCalls } from "../tasks/task-calls.js";
import { Connection } from "../wire/connection.js";
import type { StdioProcessTransport } from "../wire/stdio-transport.js";
import { classifyModernError } from "./classify-error.js";
import { clientCapabilities, installEraHandlers } from "./era-handlers.js";
import { MODERN_PROTOCOL } from "./era-probe.js";
import { ListenStream } from "./listen-stream.js";
import { looseResult } from "./loose-result.js";
import {
  type CallOptions,
  type CompletionRequest,
  type CompletionResult,
  type DialOptions,
  McpCallError,
  type McpSession,
  type RemoteCallResult,
  type ServerNotice,
  type ToolsPage,
} from "./mcp-session.js";
import { authFor, authorizeModern, loginAgain, modernHttpTransport } from "./modern-http-auth.js";
import { modernCallLane } from "./modern-http-lane.js";
import { ModernPlainCalls, type ToolCallParams } from "./modern-plain-calls.js";
import { ModernToolListing } from "./modern-tool-listing.js";
import { noSdkValidation } from "./no-sdk-validation.js";
import { toToolsPage } from "./parse-tools.js";
import { NO_SDK_TIMEOUT, withRequestSignal } from "./request-signal.js";
import { completionOf, progressOption, serverInfoOf, toRemoteCallResult } from "./results.js";
import { closeReason, SessionEvents } from "./session-events.js";
import { callRequest, type SessionRequestOptions, sessionRequest } from "./session-request.js";
import { withoutUnmirrorableTools } from "./x-mcp-header.js";

type Transport = Parameters<Client["connect"]>[0];

/**
 * A session in the stateless 2026-07-28 era, on the official v2 client
 * (`@modelcontextprotocol/client`), loaded only when a server speaks it. The era was
 * negotiated on the transport before (era-probe.ts): the client adopts the server's
 * DiscoverResult without another round trip. Server requests arrive as `input_required`
 * results that the client answers through the same handlers as 2025's server requests;
 * `list_changed` comes over `subscriptions/listen`.
 */
export class ModernSession implements McpSession {
  private readonly events = new SessionEvents();
  private closing = false;
  private stream: ListenStream | undefined;
  /** Plain tool calls beside the client, over stdio (see ModernPlainCalls). */
  private plain: ModernPlainCalls | undefined;
  /** The tools as listed, for calls, and how long the listing is fresh. */
  private readonly listing = new ModernToolListing(() => this.events.emit("tools-changed"));

  static async connect(
    server: McpServerConfig,
    options: DialOptions,
    /**
     * Our stdio transport and the connection the era was asked on; absent for HTTP, where the
     * v2 transport and a connection above it are made here.
     */
    stdio: { transport: StdioProcessTransport; connection: Connection } | undefined,
    discover: Record<string, unknown>,
    loggedIn = false,
  ): Promise<ModernSession> {
    const auth = stdio ? undefined : await authFor(server, options);
    const http = stdio ? undefined : modernHttpTransport(server, auth);
    const era = { completeResults: true, subscriptions: true };
    // Plain tool calls are the connection's own (ModernPlainCalls), over HTTP on its lane; the
    // client sends the rest through it.
    const channel =
      stdio?.connection ?? new Connection(http as never, modernCallLane(server, http!, auth), era);
    channel.useEra(era);
    const capabilities = clientCapabilities(server, options.handlers);
    // No versionNegotiation: the era is settled, and connect({ prior }) adopts it as it is.
    const client = new Client(options.clientInfo, {
      capabilities,
      jsonSchemaValidator: noSdkValidation,
    });
    installEraHandlers(client, server, options.handlers);
    // Later in the session the connect budget is long spent: a login gets its own.
    const reauthorize = auth
      ? () =>
          loginAgain(
            server,
            { ...options, signal: AbortSignal.timeout(server.connectTimeoutMs) },
            auth,
            http!,
          )
      : undefined;
    const session = new ModernSession(
      server.name,
      client,
      channel,
      // Ours over stdio, for how its process ended.
      stdio?.transport,
      !stdio,
      modernTaskCalls(server, options, client, channel),
      reauthorize,
      server.logLevel,
    );
    try {
      await withRequestSignal(options.signal, (requestSignal) =>
        client.connect(channel as unknown as Transport, {
          prior: { kind: "modern", discover: discover as never },
          signal: requestSignal,
          timeout: NO_SDK_TIMEOUT,
        }),
      );
      // The envelope the client stamps on its own requests, on the channel's too.
      channel.useEnvelope({
        [PROTOCOL_VERSION_META_KEY]: session.protocolVersion,
        [CLIENT_INFO_META_KEY]: options.clientInfo,
        [CLIENT_CAPABILITIES_META_KEY]: capabilities,
      });
      session.plain = new ModernPlainCalls(
        channel,
        http && ((name) => session.listing.mirrorsHeaders(name)),
      );
      await session.follow(options.signal);
    } catch (error) {
      await session.closeQuietly();
      // A token refused: the v2 client ran its OAuth flow, and a person has to log in. The
      // redirect goes back to the transport, which checks its issuer, then a fresh connect.
      if (!loggedIn && auth && error instanceof UnauthorizedError) {
        const login = await authorizeModern(server, options, auth, http!);
        if (login) return ModernSession.connect(server, options, stdio, discover, true);
      }
      throw error;
    }
    return session;
  }

  private constructor(
    readonly serverName: string,
    private readonly client: Client,
    private readonly connection: Connection,
    stdio: Pick<StdioProcessTransport, "exitInfo"> | undefined,
    /** Over HTTP, `x-mcp-header` parameters travel as headers, and the rules for them apply. */
    private readonly overHttp: boolean,
    /** Calls of tools that run as tasks (the Tasks extension), on the connection's exchanges. */
    private readonly tasks: TaskCalls,
    /** A person logs in again when a request's token is refused (an OAuth server only). */
    private readonly reauthorize?: () => Promise<boolean>,
    /** `logging.level`: asked per call in this era (the `logLevel` of a request's `_meta`). */
    private readonly logLevel?: string,
  ) {
    const events = this.events;
    client.setNotificationHandler("notifications/tools/list_changed", events.toolsListChanged);
    client.setNotificationHandler(
      "notifications/resources/list_changed",
      events.resourcesListChanged,
    );
    client.setNotificationHandler("notifications/prompts/list_changed", events.promptsListChanged);
    client.setNotificationHandler("notifications/resources/updated", events.resourceUpdated);
    client.onclose = () => {
      if (this.closing) return;
      this.events.emit("closed", closeReason(stdio?.exitInfo));
    };
  }

  /**
   * `subscriptions/listen` for the lists that the server says change (tools, prompts,
   * resources) and the resources subscribed to: the 2026 way to hear of them. Nothing is
   * opened for a server whose lists never change, until a resource is subscribed to.
   */
  private async follow(signal: AbortSignal): Promise<void> {
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

  get protocolVersion(): string {
    return this.client.getNegotiatedProtocolVersion() ?? MODERN_PROTOCOL;
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
    const result = (await this.request(signal, (options) =>
      this.client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        options,
      ),
    )) as { tools?: unknown; nextCursor?: string; ttlMs?: unknown };
    if (cursor === undefined) this.listing.restart(result.ttlMs);
    const page = toToolsPage(result);
    if (this.overHttp) withoutUnmirrorableTools(page);
    this.listing.keep(result.tools, page);
    return page;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RemoteCallResult> {
    const params: ToolCallParams = { name, arguments: args };
    if (options.trace) params._meta = { ...options.trace.headers };
    if (this.logLevel) params._meta = { ...params._meta, [LOG_LEVEL_META_KEY]: this.logLevel };
    // 2026-07-28 lists no task support per tool: a server with the Tasks extension may answer
    // any call with a task, so every call to it can take one.
    const { extensions } = this.capabilities as { extensions?: Record<string, unknown> };
    if (extensions?.[TASKS_EXTENSION] !== undefined || runsAsTask(options, false))
      return this.tasks.call(name, args, params._meta, options);
    const plain = this.plain;
    if (plain?.carries(name, options)) {
      const answer = await plain.channel
        .request("tools/call", params, options)
        .catch((error: unknown) => Promise.reject(classifyModernError(error, options.signal)));
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

  async listResources(cursor: string | undefined, signal: AbortSignal) {
    return (await this.request(signal, (options) =>
      this.client.request(
        { method: "resources/list", params: cursor === undefined ? {} : { cursor } },
        options,
      ),
    )) as { resources: Array<Record<string, unknown>>; nextCursor?: string };
  }

  async extensionRequest(method: string, params: Record<string, unknown>, signal: AbortSignal) {
    return (await this.request(signal, (options) =>
      this.client.request({ method, params }, looseResult, options),
    )) as Record<string, unknown>;
  }

  async readResource(uri: string, signal: AbortSignal) {
    return (await this.request(signal, (options) =>
      this.client.readResource({ uri }, options),
    )) as unknown as { contents: Array<Record<string, unknown>> };
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
    )) as unknown as Record<string, unknown>;
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

  /** A resource subscription is a `subscriptions/listen` filter in 2026-07-28. */
  async subscribeResource(uri: string, signal: AbortSignal): Promise<void> {
    const { resources } = this.capabilities as { resources?: { subscribe?: boolean } };
    if (!resources?.subscribe || !this.stream)
      throw new McpCallError(
        "protocol",
        `MCP server "${this.serverName}" does not offer resource subscriptions (its capabilities have no resources.subscribe).`,
      );
    await this.request(signal, (options) => this.stream!.watch(uri, options.signal));
  }

  async unsubscribeResource(uri: string, signal: AbortSignal): Promise<void> {
    await this.stream?.unwatch(uri, signal).catch(() => undefined);
  }

  async complete(request: CompletionRequest, signal: AbortSignal): Promise<CompletionResult> {
    const result = await this.request(signal, (options) =>
      this.client.complete(request as never, options),
    );
    return completionOf((result as { completion?: unknown }).completion);
  }

  /** The 2026 revision removed `elicitation/complete`: its URL elicitations are input_required. */
  onElicitationComplete(): Disposable {
    return toDisposable(() => undefined);
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
    await this.closeQuietly();
    this.events.removeAllListeners();
  }

  private async closeQuietly(): Promise<void> {
    this.closing = true;
    this.listing.close();
    await this.tasks.close();
    await this.stream?.close();
    await this.client.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }

  /**
   * One v2 request (see sessionRequest); failures as McpCallError, judged by what was aborted.
   * A refused token is a login (when someone can log in), then the request once more.
   */
  private request<T>(
    signal: AbortSignal,
    run: (options: SessionRequestOptions) => Promise<T>,
  ): Promise<T> {
    return sessionRequest(signal, run, this.recovery(signal));
  }

  private recovery<T>(signal: AbortSignal) {
    return async (error: unknown, again: (() => Promise<T>) | undefined): Promise<T> => {
      if (
        error instanceof UnauthorizedError &&
        again &&
        !signal.aborted &&
        (await this.reauthorize?.())
      )
        return again();
      throw classifyModernError(error, signal);
    };
  }
}
