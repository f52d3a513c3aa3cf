import { type ElicitationRequest, type ElicitationResponse } from "@pseudoclaude/core";
import {
  type Disposable,
  isErrorOf,
  type ToolProgress,
  type ToolTaskMode,
  type ToolTaskReference,
  type ToolTaskUpdate,
  type ToolTrace,
} from "@pseudoclaude/core/plugin";
import type { McpServerConfig } from "./config/server-config.js";
import { type McpCallErrorCode, type McpCallReason, ToolSourceError } from "./mcp-errors.js";
import type { CredentialStore } from "./oauth/credential-store.js";
import type { Authorizer } from "./oauth/oauth-settings.js";

/**
 * Our own session interface. Only `src/session/` knows the MCP SDK, so a newer SDK generation
 * (the stateless 2026 protocol) can replace it behind this without the rest noticing.
 */
export interface RemoteTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** As the server listed them; checked where the tool is adapted. */
  icons?: unknown;
  meta?: Record<string, unknown>;
  /** The tool's `execution.taskSupport`: whether it may (or must) run as a task. */
  taskSupport?: "optional" | "required";
}

export interface ToolsPage {
  tools: RemoteTool[];
  /** Entries that are not valid tool definitions, skipped (one bad tool must not sink the list). */
  invalid?: Array<{ name?: string; message: string }>;
  /** Absent when the server says this is the last page. */
  nextCursor?: string;
}

export type RemoteContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | {
      type: "resource_link";
      uri: string;
      name?: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
    }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: string; [key: string]: unknown };

export interface RemoteCallResult {
  content: RemoteContent[];
  structuredContent?: unknown;
  isError?: boolean;
  meta?: Record<string, unknown>;
  /** The call became a task and was handed off (ToolTaskMode `handoff`): how to resume it. */
  handoff?: { task: ToolTaskUpdate; reference: ToolTaskReference };
}

const CALL_ERROR_CODES: Record<McpCallReason, McpCallErrorCode> = {
  transport: "call_transport_failed",
  session: "call_session_unavailable",
  protocol: "call_protocol_error",
  timeout: "call_timed_out",
  cancelled: "call_cancelled",
  auth: "call_needs_auth",
};

/**
 * A session-level failure: the call never got a tool answer. The server's end is at fault
 * (`ToolSourceError`); `reason` goes to the result's metadata and picks the code.
 */
export class McpCallError extends ToolSourceError<McpCallErrorCode> {
  /**
   * The request never reached a live session (an HTTP session the server no longer knows):
   * safe to send again once, on a new session.
   */
  readonly retryable: boolean;
  /** The server's JSON-RPC error, when it answered with one. */
  readonly rpc: { code: number; data?: unknown } | undefined;

  constructor(
    readonly reason: McpCallReason,
    message: string,
    options: { cause?: unknown; retryable?: boolean; rpc?: { code: number; data?: unknown } } = {},
  ) {
    super(CALL_ERROR_CODES[reason], message, {
      details: { reason },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.retryable = options.retryable ?? false;
    this.rpc = options.rpc;
  }

  /** True for an McpCallError from any copy of this module; `code` is typed. */
  static override is(value: unknown): value is McpCallError {
    return isErrorOf(value, "tool", "McpCallError");
  }
}

export interface CallOptions {
  /**
   * The call's signal. The kernel makes it on first read, so the hot path reads it only where
   * an AbortSignal is needed and listens with `onAbort` when that is given.
   */
  readonly signal: AbortSignal;
  /** Hear of the call's abort without making its signal (ToolExecutionContext.onAbort). */
  onAbort?: ((listener: (reason: unknown) => void) => Disposable) | undefined;
  onProgress?: ((progress: ToolProgress) => void) | undefined;
  /** The call's trace: sent in `params._meta` (and as HTTP headers), facts added to its span. */
  trace?: ToolTrace | undefined;
  /** The tool as listed may (or must) run as a task: it is asked to, where the server can. */
  taskSupport?: RemoteTool["taskSupport"] | undefined;
  /** The call became a task, or its task moved on (ToolExecutionContext.reportTask). */
  reportTask?: ((update: ToolTaskUpdate) => void) | undefined;
  /** Hand a task off, or resume one handed off before (a durable run's steps). */
  taskMode?: ToolTaskMode | undefined;
  /** Each request's own timeout while a task runs: the call's timeout. */
  requestTimeoutMs?: number | undefined;
}

export interface McpSession {
  readonly serverName: string;
  readonly protocolVersion: string | undefined;
  readonly serverInfo: { name: string; version: string; title?: string } | undefined;
  readonly instructions: string | undefined;
  readonly capabilities: {
    tools?: { listChanged?: boolean };
    resources?: object;
    prompts?: object;
    logging?: object;
  };
  listToolsPage(cursor: string | undefined, signal: AbortSignal): Promise<ToolsPage>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RemoteCallResult>;
  listResources(
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<{ resources: Array<Record<string, unknown>>; nextCursor?: string }>;
  readResource(
    uri: string,
    signal: AbortSignal,
  ): Promise<{ contents: Array<Record<string, unknown>> }>;
  listPrompts(
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<{ prompts: Array<Record<string, unknown>>; nextCursor?: string }>;
  getPrompt(
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  listResourceTemplates(
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<{ resourceTemplates: Array<Record<string, unknown>>; nextCursor?: string }>;
  /** `resources/subscribe`: `resource-updated` notices follow while subscribed. */
  subscribeResource(uri: string, signal: AbortSignal): Promise<void>;
  unsubscribeResource(uri: string, signal: AbortSignal): Promise<void>;
  /** `completion/complete`: values for a prompt's or a resource template's argument. */
  complete(request: CompletionRequest, signal: AbortSignal): Promise<CompletionResult>;
  /**
   * A request of an extension the server declared (`skills/list`): its result as sent, for the
   * extension's own code to check.
   */
  extensionRequest(
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** `notifications/tools/list_changed` from the server. */
  onToolsChanged(listener: () => void): Disposable;
  /** The server's other list_changed notifications. */
  onNotice(listener: (notice: ServerNotice) => void): Disposable;
  /**
   * `notifications/elicitation/complete` (2025 era): the person finished a URL elicitation out of
   * band. The 2026 revision has none: its URL elicitations ride input_required results.
   */
  onElicitationComplete(listener: (elicitationId: string) => void): Disposable;
  /** The session ended without `close()` (process died, stream lost). */
  onClosed(listener: (reason: string) => void): Disposable;
  close(): Promise<void>;
}

/** What changed on a server besides its tools. */
export type ServerNotice =
  | { kind: "resources-changed" }
  | { kind: "prompts-changed" }
  /** A resource subscribed to changed (`notifications/resources/updated`). */
  | { kind: "resource-updated"; uri: string };

/** What `completion/complete` is asked: the prompt or template, and the argument so far. */
export interface CompletionRequest {
  ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
  argument: { name: string; value: string };
  /** Arguments already filled in, for completions that depend on them. */
  context?: { arguments: Record<string, string> };
}

export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** Handlers for requests a server sends to the client. */
export interface ClientHandlers {
  /** Present only when the agent was given an elicit callback: elicitation is declared then. */
  elicit?: (request: ElicitationRequest) => Promise<ElicitationResponse>;
  /** Present only when sampling is enabled for this server. */
  sample?: (request: SamplingRequest, signal: AbortSignal) => Promise<SamplingResponse>;
  /** Roots the client exposes (the workspace). */
  roots: () => Array<{ uri: string; name?: string }>;
  /** A log message a server sent (`notifications/message`). */
  log?: (server: string, entry: ServerLogEntry) => void;
  /** A host that renders MCP Apps views is attached: the extension is declared to servers. */
  appHost?: { mimeTypes: string[] };
}

/** One log message of a server: RFC 5424 level, the logger it names, any JSON data. */
export interface ServerLogEntry {
  level: string;
  logger?: string;
  data: unknown;
}

export interface SamplingRequest {
  server: string;
  /** Content blocks as MCP has them, `tool_use` and `tool_result` (2025-11-25) among them. */
  messages: Array<{ role: "user" | "assistant"; content: unknown }>;
  systemPrompt?: string;
  maxTokens: number;
  /** Tools the server offers the model for this request; it runs them itself. */
  tools?: Array<{
    name: string;
    description?: string | undefined;
    inputSchema: Record<string, unknown>;
  }>;
  toolChoice?: { mode?: "auto" | "required" | "none" | undefined };
  /** The server's wishes for the model: hints (name substrings, in order) and priorities. */
  modelPreferences?: {
    hints?: Array<{ name?: string | undefined }> | undefined;
    costPriority?: number | undefined;
    speedPriority?: number | undefined;
    intelligencePriority?: number | undefined;
  };
  /** The models the user let this server's hints choose from (`sampling_models`). */
  models?: readonly string[];
}

export interface SamplingResponse {
  role: "assistant";
  /** Text, or the model's tool calls as `tool_use` blocks for the server to run. */
  content:
    | { type: "text"; text: string }
    | Array<{ type: "tool_use"; id: string; name: string; input: Record<string, unknown> }>;
  model: string;
  stopReason?: string;
}

export interface DialOptions {
  /** The connect budget: aborted when spawn/connect + initialize takes too long. */
  signal: AbortSignal;
  clientInfo: { name: string; version: string };
  handlers: ClientHandlers;
  /** Bounded stderr tail size (lines) for stdio servers. */
  stderrLines?: number;
  onStderr?: (line: string) => void;
  /** Where OAuth clients and tokens are kept (default: the user's credentials file). */
  credentials?: CredentialStore;
  /** Completes an authorization a person would do in a browser; absent: the server needs login. */
  authorize?: Authorizer;
  /** Where the authorization server sends the browser back (a loopback listener). */
  redirectUri?: string;
}

/** Creates sessions; tests and a future SDK generation swap this. */
export interface SessionDialer {
  dial(server: McpServerConfig, options: DialOptions): Promise<McpSession>;
  /** The last lines the stdio server it last started wrote to stderr (bounded), if it knows. */
  stderrTail?(): readonly string[];
}
