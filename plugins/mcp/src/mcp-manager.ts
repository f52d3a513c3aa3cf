import type { Disposable } from "@pseudoclaude/core/plugin";
import type { ServerStats } from "./manager/server-connection.js";
import type {
  CompletionRequest,
  CompletionResult,
  ServerLogEntry,
  ServerNotice,
} from "./mcp-session.js";

/** Per-server report for code and the CLI. */
export interface McpServerReport {
  name: string;
  transport: string;
  state: string;
  stats: ServerStats;
  lastError?: string;
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
  /** A stdio server's last stderr lines (at most 40, each cut at 1,000 characters). */
  stderr?: string[];
}

/** Resources per server; a server that could not answer has `error` and no resources. */
export interface McpResourceListing {
  servers: Array<{
    server: string;
    resources: Array<Record<string, unknown>>;
    nextCursor?: string;
    error?: string;
  }>;
}

/** Resource templates per server; a server that could not answer has `error` and none. */
export interface McpResourceTemplateListing {
  servers: Array<{
    server: string;
    resourceTemplates: Array<Record<string, unknown>>;
    nextCursor?: string;
    error?: string;
  }>;
}

/** Prompts per server; a server that could not answer has `error` and no prompts. */
export interface McpPromptListing {
  servers: Array<{
    server: string;
    prompts: Array<Record<string, unknown>>;
    nextCursor?: string;
    error?: string;
  }>;
}

/** How a login started from code or a chat shows the person where to go. */
export interface McpLoginOptions {
  /** Show the authorization URL (and open a browser where one is available). */
  show(url: URL): void;
  /** Cancels the wait for the person; nothing is stored then. */
  signal?: AbortSignal;
  /** How long to wait for the person. Default 5 minutes. */
  timeoutMs?: number;
}

/**
 * The plugin's API for code (`agent.resolve<McpManager>(McpManager)`): servers, their state and
 * stats, and their resources and prompts.
 */
export interface McpManager {
  /** One report per configured server, in configuration order. */
  servers(): McpServerReport[];
  /** Every server's counters summed: configured, connected, discovered, adapted, filtered. */
  totals(): ServerStats;
  /** Whether some connected server offers resources (or prompts). */
  anyServerWith(capability: "resources" | "prompts"): boolean;
  /** Called whenever a server's connection state changes. */
  onConnectionsChanged(listener: () => void): Disposable;
  /**
   * Log in to one http or sse server behind OAuth (the loopback flow of `mcp login`), store its
   * tokens, and connect it again when it was waiting for the login: its tools join the agent.
   * Resolves with the server's report after the reconnect.
   */
  login(server: string, options: McpLoginOptions): Promise<McpServerReport>;
  /**
   * Connect a server again now, one that failed to start or was disconnected (a person fixed
   * what was wrong); a server in any other state is left as it is. Resolves with its report:
   * `state` says whether it worked, `lastError` why not. Its tools join the agent when it does.
   */
  reconnect(server: string, signal?: AbortSignal): Promise<McpServerReport>;
  /** Resources of one server, or of every connected server that has them. */
  listResources(
    server: string | undefined,
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<McpResourceListing>;
  /** One resource of a server by its URI. */
  readResource(
    server: string,
    uri: string,
    signal: AbortSignal,
  ): Promise<{ contents: Array<Record<string, unknown>> }>;
  /** Prompts of one server, or of every connected server that has them. */
  listPrompts(
    server: string | undefined,
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<McpPromptListing>;
  /** Resource templates (RFC 6570 URI templates) of one server, or of every one that has them. */
  listResourceTemplates(
    server: string | undefined,
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<McpResourceTemplateListing>;
  /**
   * `completion/complete`: the values a server suggests for an argument of one of its prompts
   * (`ref/prompt`) or resource templates (`ref/resource`), given what was typed so far.
   */
  complete(
    server: string,
    request: CompletionRequest,
    signal: AbortSignal,
  ): Promise<CompletionResult>;
  /**
   * Subscribe to a resource (2025-11-25 `resources/subscribe`; 2026-07-28 the
   * `resourceSubscriptions` of `subscriptions/listen`): `resource-updated` notices arrive
   * through `onServerNotice`; the subscription survives reconnects until `unsubscribeResource`.
   */
  subscribeResource(server: string, uri: string, signal: AbortSignal): Promise<void>;
  unsubscribeResource(server: string, uri: string, signal: AbortSignal): Promise<void>;
  /**
   * A server's log message (`notifications/message`), redacted with the agent's redactor, as it
   * arrives. (They also become the agent's `mcp_server_log` diagnostics.)
   */
  onServerLog(listener: (server: string, entry: ServerLogEntry) => void): Disposable;
  /** A server's resources or prompts changed (its list_changed), in either era. */
  onServerNotice(listener: (server: string, notice: ServerNotice) => void): Disposable;
  /** One prompt of a server, filled with `args`. */
  getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
}

/** DI token for {@link McpManager}; the plugin registers a `DefaultMcpManager`. */
export const McpManager = Symbol.for("@pseudoclaude/plugin-mcp:McpManager");
