import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  type Tool,
  ToolListChangedNotificationSchema,
  ToolSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { type Disposable, toDisposable } from "@pseudoclaude/core";
import { EventEmitter } from "eventemitter3";
import { z } from "zod";
import type { McpServerConfig } from "../config/server-config.js";
import { childEnvironment } from "./child-environment.js";
import {
  type CallOptions,
  type DialOptions,
  McpCallError,
  type McpSession,
  type RemoteCallResult,
  type RemoteTool,
  type SessionDialer,
  type ToolsPage,
} from "./mcp-session.js";
import { StderrTail } from "./stderr-tail.js";
import { StdioProcessTransport } from "./stdio-process-transport.js";

/**
 * The SDK's own per-request timeout (60 s default) cannot be switched off and `Infinity`
 * overflows to 1 ms, so every request gets the largest timer value and the registry's single
 * timeout rules through the AbortSignal instead.
 */
const NO_SDK_TIMEOUT = 2_147_483_647;

/**
 * Run one SDK request with a signal that follows `outer` only while the request runs. The SDK
 * never removes its abort listener, so a long-lived signal (the connect budget, a shared call
 * signal) aborting later would send notifications/cancelled for requests that already finished
 * - including `initialize`, which clients must never cancel.
 */
async function withRequestSignal<T>(
  outer: AbortSignal,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener("abort", forward, { once: true });
  try {
    return await run(controller.signal);
  } finally {
    outer.removeEventListener("abort", forward);
  }
}

const lenientToolsPage = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/**
 * Check each listed tool on its own. An empty `inputSchema` (`{}` or missing) is repaired to
 * `{ "type": "object" }` as the seed did; anything else invalid is skipped with its reason.
 */
function parseTools(entries: unknown[]): {
  tools: Tool[];
  invalid: Array<{ name?: string; message: string }>;
} {
  const tools: Tool[] = [];
  const invalid: Array<{ name?: string; message: string }> = [];
  for (const entry of entries) {
    let candidate = entry;
    if (candidate && typeof candidate === "object") {
      const schema = (candidate as { inputSchema?: unknown }).inputSchema;
      if (
        schema === undefined ||
        (schema && typeof schema === "object" && Object.keys(schema).length === 0)
      ) {
        candidate = { ...candidate, inputSchema: { type: "object" } };
      }
    }
    const parsed = ToolSchema.safeParse(candidate);
    if (parsed.success) {
      tools.push(parsed.data);
      continue;
    }
    const name = (entry as { name?: unknown } | null)?.name;
    const issue = parsed.error.issues[0];
    invalid.push({
      ...(typeof name === "string" ? { name } : {}),
      message: issue
        ? `${issue.path.join(".") || "(tool)"}: ${issue.message}`
        : "invalid tool definition",
    });
  }
  return { tools, invalid };
}

/** The SDK validates structured output only for tools of the last listed page; we do it ourselves. */
const noValidation = {
  getValidator: () => (input: unknown) => ({
    valid: true as const,
    data: input as never,
    errorMessage: undefined,
  }),
};

/** Dials servers with `@modelcontextprotocol/sdk` 1.x. The only module that imports the SDK client. */
export class SdkDialer implements SessionDialer {
  async dial(server: McpServerConfig, options: DialOptions): Promise<McpSession> {
    const client = new Client(options.clientInfo, {
      capabilities: {
        // applyDefaults: an accepted form gets the schema's defaults for fields left out.
        elicitation: { form: { applyDefaults: true } },
        roots: { listChanged: true },
        ...(server.sampling ? { sampling: {} } : {}),
      },
      jsonSchemaValidator: noValidation,
    });
    const session = new SdkSession(server.name, client);
    installHandlers(client, server, options);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      session.events.emit("tools-changed");
    });
    const tail = new StderrTail(options.stderrLines ?? 40);
    const transport = createTransport(server, tail, options);
    session.transport = transport;
    try {
      await withRequestSignal(options.signal, (signal) =>
        client.connect(transport, { signal, timeout: NO_SDK_TIMEOUT }),
      );
    } catch (error) {
      await closeQuietly(client, transport);
      throw describeConnectFailure(server, error, transport, tail, options.signal);
    }
    session.stderr = tail;
    session.watchClose();
    return session;
  }
}

function installHandlers(client: Client, server: McpServerConfig, options: DialOptions): void {
  const { handlers } = options;
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    if (!handlers.elicit) return { action: "decline" };
    const params = request.params as {
      message: string;
      requestedSchema?: Record<string, unknown>;
      mode?: string;
    };
    if (params.mode === "url") return { action: "decline" };
    const answer = await handlers.elicit({
      source: `mcp:${server.name}`,
      message: params.message,
      requestedSchema: params.requestedSchema ?? { type: "object", properties: {} },
      signal: extra.signal,
    });
    return answer.action === "accept"
      ? { action: "accept", content: answer.content ?? {} }
      : { action: answer.action };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: handlers.roots() }));
  if (server.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      if (!handlers.sample)
        throw new McpError(ErrorCode.InvalidRequest, "Sampling is not available in this client.");
      const params = request.params;
      const response = await handlers.sample(
        {
          server: server.name,
          messages: params.messages as never,
          ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}),
          maxTokens: params.maxTokens,
        },
        extra.signal,
      );
      return { ...response };
    });
  }
}

function createTransport(
  server: McpServerConfig,
  tail: StderrTail,
  options: DialOptions,
): Transport {
  if (server.transport === "stdio") {
    return new StdioProcessTransport({
      command: server.command!,
      args: server.args,
      env: childEnvironment(server.env, server.inheritEnv),
      ...(server.cwd ? { cwd: server.cwd } : {}),
      stderrTail: tail,
      ...(options.onStderr ? { onStderrLine: options.onStderr } : {}),
    });
  }
  const requestInit: RequestInit = { headers: server.headers };
  if (server.transport === "sse")
    return new SSEClientTransport(new URL(server.url!), { requestInit });
  return new StreamableHTTPClientTransport(new URL(server.url!), { requestInit });
}

function describeConnectFailure(
  server: McpServerConfig,
  error: unknown,
  transport: Transport,
  tail: StderrTail,
  signal: AbortSignal,
): Error {
  const base = error instanceof Error ? error.message : String(error);
  if (transport instanceof StdioProcessTransport) {
    const exit = transport.exitInfo;
    const stderr = `\nLast stderr lines of "${server.command}":\n${tail.describe(10)}`;
    // Checked first: when the budget ran out, we are the ones who ended the process.
    if (signal.aborted) {
      return new Error(
        `No MCP handshake within the connect budget of ${server.connectTimeoutMs} ms.${stderr}`,
        {
          cause: error,
        },
      );
    }
    if (exit) {
      const how =
        exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
      return new Error(`The server process ${how} before the MCP handshake finished.${stderr}`, {
        cause: error,
      });
    }
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return new Error(`Cannot start "${server.command}": command not found.`, { cause: error });
    }
    if (signal.aborted) {
      return new Error(
        `No MCP handshake within the connect budget of ${server.connectTimeoutMs} ms.${stderr}`,
        { cause: error },
      );
    }
    return new Error(`${base}${stderr}`, { cause: error });
  }
  if (signal.aborted)
    return new Error(
      `No MCP handshake within the connect budget of ${server.connectTimeoutMs} ms.`,
      { cause: error },
    );
  return new Error(`Cannot connect to ${server.url}: ${describeHttpError(error)}`, {
    cause: error,
  });
}

function describeHttpError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string } }).cause;
  if (cause?.code) return `${error.message} (${cause.code})`;
  const code = (error as { code?: number }).code;
  return typeof code === "number" ? `HTTP ${code}: ${error.message}` : error.message;
}

async function closeQuietly(client: Client, transport: Transport): Promise<void> {
  try {
    await client.close();
  } catch {
    // The connection failed already; closing is best effort.
  }
  try {
    await transport.close();
  } catch {
    // Same.
  }
}

class SdkSession implements McpSession {
  readonly events = new EventEmitter<{ "tools-changed": []; closed: [string] }>();
  transport: Transport | undefined;
  stderr: StderrTail | undefined;
  private closing = false;

  constructor(
    readonly serverName: string,
    private readonly client: Client,
  ) {}

  get protocolVersion(): string | undefined {
    return (this.transport as { protocolVersion?: string } | undefined)?.protocolVersion;
  }

  get serverInfo() {
    const info = this.client.getServerVersion();
    return info
      ? { name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) }
      : undefined;
  }

  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  get capabilities() {
    return (this.client.getServerCapabilities() ?? {}) as McpSession["capabilities"];
  }

  watchClose(): void {
    this.client.onclose = () => {
      if (this.closing) return;
      const exit =
        this.transport instanceof StdioProcessTransport ? this.transport.exitInfo : undefined;
      const how = exit
        ? exit.code !== null
          ? `process exited with code ${exit.code}`
          : `process killed by ${exit.signal}`
        : "connection closed";
      this.events.emit("closed", how);
    };
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
    const { tools, invalid } = parseTools(result.tools);
    const page: ToolsPage = {
      tools: tools.map((tool) => {
        const remote: RemoteTool = { name: tool.name };
        if (tool.title) remote.title = tool.title;
        if (tool.description) remote.description = tool.description;
        if (tool.inputSchema) remote.inputSchema = tool.inputSchema as Record<string, unknown>;
        if (tool.outputSchema) remote.outputSchema = tool.outputSchema as Record<string, unknown>;
        if (tool.annotations) remote.annotations = { ...tool.annotations };
        if (tool._meta) remote.meta = tool._meta;
        return remote;
      }),
    };
    if (invalid.length > 0) page.invalid = invalid;
    if (result.nextCursor !== undefined) page.nextCursor = result.nextCursor;
    return page;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RemoteCallResult> {
    const result = await this.request(options.signal, (request) =>
      this.client.callTool({ name, arguments: args }, CallToolResultSchema, {
        ...request,
        ...(options.onProgress
          ? {
              onprogress: (progress: { progress: number; total?: number; message?: string }) =>
                options.onProgress?.({
                  progress: progress.progress,
                  ...(progress.total !== undefined ? { total: progress.total } : {}),
                  ...(progress.message !== undefined ? { message: progress.message } : {}),
                }),
            }
          : {}),
      }),
    );
    const out: RemoteCallResult = {
      content: (result.content ?? []) as RemoteCallResult["content"],
    };
    if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
    if (result.isError) out.isError = true;
    if (result._meta) out.meta = result._meta as Record<string, unknown>;
    return out;
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

  onToolsChanged(listener: () => void): Disposable {
    this.events.on("tools-changed", listener);
    return toDisposable(() => this.events.off("tools-changed", listener));
  }

  onClosed(listener: (reason: string) => void): Disposable {
    this.events.on("closed", listener);
    return toDisposable(() => this.events.off("closed", listener));
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.transport instanceof StreamableHTTPClientTransport && this.transport.sessionId) {
      // Tell the server the session is over (HTTP DELETE); a server that does not support it is fine.
      await this.transport.terminateSession().catch(() => undefined);
    }
    await this.client.close().catch(() => undefined);
    await this.transport?.close().catch(() => undefined);
    this.events.removeAllListeners();
  }

  /** One SDK request with its own signal (see withRequestSignal), failures as McpCallError. */
  private async request<T>(
    signal: AbortSignal,
    run: (options: { signal: AbortSignal; timeout: number }) => Promise<T>,
  ): Promise<T> {
    try {
      return await withRequestSignal(signal, (requestSignal) =>
        run({ signal: requestSignal, timeout: NO_SDK_TIMEOUT }),
      );
    } catch (error) {
      throw classifyError(error);
    }
  }
}

export function classifyError(error: unknown): McpCallError {
  if (error instanceof McpCallError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof McpError) {
    if (error.code === ErrorCode.ConnectionClosed)
      return new McpCallError("session", message, { cause: error });
    if (error.code === ErrorCode.RequestTimeout)
      return new McpCallError("cancelled", message, { cause: error });
    return new McpCallError("protocol", message, { cause: error });
  }
  if (/not connected/i.test(message)) return new McpCallError("session", message, { cause: error });
  if (error instanceof Error && error.name === "AbortError")
    return new McpCallError("cancelled", message, { cause: error });
  return new McpCallError("transport", message, { cause: error });
}
