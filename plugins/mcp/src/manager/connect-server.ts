import { type Diagnostic } from "@pseudoclaude/core";
import { errorMessage } from "@pseudoclaude/core/plugin";
import type { McpServerConfig } from "../config/server-config.js";
import { type McpServerErrorCode, ToolSourceError } from "../mcp-errors.js";
import type { ClientHandlers, McpSession, SessionDialer } from "../mcp-session.js";
import type { CredentialStore } from "../oauth/credential-store.js";
import type { Authorizer } from "../oauth/oauth-settings.js";
import { serverDiagnostic } from "./server-diagnostic.js";
import type { ToolDiscovery } from "./tool-discovery.js";

/** What connecting one server needs. */
export interface ConnectServerOptions {
  server: McpServerConfig;
  dialer: SessionDialer;
  handlers: ClientHandlers;
  clientInfo: { name: string; version: string };
  discovery: ToolDiscovery;
  report: (diagnostic: Diagnostic) => void;
  /** The caller's signal (start-up or the call that needs a session). */
  signal: AbortSignal;
  /** Aborted when the connection closes. */
  closed: AbortSignal;
  /** The start-up connect (not a reconnect): the first discovery checks more. */
  first: boolean;
  credentials?: CredentialStore;
  authorize?: Authorizer;
}

/**
 * Dial, list and adapt under one budget: spawn/connect + initialize + first tools/list. The
 * budget bounds only these steps; the session it returns lives on until closed, or a stdio
 * server would be ended with the budget and every tool found at start-up fail later. Each
 * failure is reported with its stage, then thrown.
 */
export async function connectServer(options: ConnectServerOptions): Promise<McpSession> {
  const { server, report } = options;
  const budget = AbortSignal.any([
    options.signal,
    options.closed,
    AbortSignal.timeout(server.connectTimeoutMs),
  ]);
  let session: McpSession;
  try {
    session = await options.dialer.dial(server, {
      signal: budget,
      clientInfo: options.clientInfo,
      handlers: options.handlers,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.authorize ? { authorize: options.authorize } : {}),
    });
  } catch (error) {
    // Needing a login is a state to show, not a failure to shout about.
    if (ToolSourceError.is(error) && error.code === "needs_auth") {
      report(
        serverDiagnostic(
          server.name,
          "connect",
          "info",
          "mcp_server_needs_auth",
          errorMessage(error),
        ),
      );
      throw error;
    }
    report(
      serverDiagnostic(
        server.name,
        "connect",
        "error",
        "connect_failed",
        `Cannot connect to MCP server "${server.name}": ${errorMessage(error)}`,
      ),
    );
    throw error;
  }
  try {
    await options.discovery.discover(session, budget, options.first);
  } catch (error) {
    await session.close().catch(() => undefined);
    const why =
      budget.aborted && !options.signal.aborted
        ? `no complete tools/list within the connect budget of ${server.connectTimeoutMs} ms`
        : errorMessage(error);
    report(
      serverDiagnostic(
        server.name,
        "list_tools",
        "error",
        "list_tools_failed",
        `tools/list failed for MCP server "${server.name}": ${why}`,
      ),
    );
    throw new ToolSourceError<McpServerErrorCode>("list_tools_failed", why, { cause: error });
  }
  return session;
}
