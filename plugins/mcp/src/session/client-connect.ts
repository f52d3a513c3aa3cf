import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  PROTOCOL_VERSION_META_KEY,
  specTypeSchemas,
} from "@modelcontextprotocol/client";
import type { PseudoClaudeError } from "@pseudoclaude/core";
import type { McpServerConfig } from "../config/server-config.js";
import { type McpServerErrorCode, ToolSourceError } from "../mcp-errors.js";
import type { DialOptions } from "../mcp-session.js";
import { clientTaskCalls } from "../tasks/client-task-calls.js";
import { Connection } from "../wire/connection.js";
import { ERA_2025 } from "../wire/era-2025.js";
import { ERA_2026 } from "../wire/era-2026.js";
import type { StderrTail } from "../wire/stderr-tail.js";
import { stderrOf, stdioEndedEarly } from "../wire/stdio-failure.js";
import type { StdioProcessTransport } from "../wire/stdio-transport.js";
import { checkedAs, NO_SDK_TIMEOUT, noSdkValidation, withRequestSignal } from "./client-options.js";
import { ClientSession } from "./client-session.js";
import { clientCapabilities, installEraHandlers } from "./era-handlers.js";
import type { SessionRemote } from "./recover-failure.js";

/**
 * A stdio server's transport, spawned by the dialer, and the connection above it that asked
 * its era.
 */
export interface EarlyStdio {
  transport: StdioProcessTransport;
  connection: Connection;
  tail: StderrTail;
}

/**
 * Connect to `server` with the official v2 client over our connection: in 2026-07-28 when
 * `discover` (the server's DiscoverResult, asked on the transport by era-probe.ts) is given,
 * adopting it without another round trip; else with 2025-11-25's `initialize`. Over stdio the
 * dialer's process and connection are used; a remote server's transport is made here. On a
 * failure everything opened is closed, and the error says what happened (see connectFailure).
 */
export async function connectSession(
  server: McpServerConfig,
  options: DialOptions,
  stdio: EarlyStdio | undefined,
  discover: Record<string, unknown> | undefined,
  loggedIn = false,
): Promise<ClientSession> {
  const modern = discover !== undefined;
  // What only remote servers need (HTTP transports, OAuth) loads with the first of them.
  const [net, login] = stdio
    ? []
    : await Promise.all([import("./remote-transports.js"), import("../oauth/login.js")]);
  const auth = login?.authProviderFor(server, options);
  const steps =
    login && auth && server.transport !== "stdio" ? login.oauthSteps(server.url) : undefined;
  const era = modern ? ERA_2026 : ERA_2025;
  const transport = net?.remoteTransport(server, auth, steps, era);
  const connection = stdio ? stdio.connection : new Connection(transport!);
  connection.useEra(era.connection);
  const capabilities = clientCapabilities(server, options.handlers);
  const client = new Client(options.clientInfo, {
    capabilities,
    jsonSchemaValidator: noSdkValidation,
  });
  installEraHandlers(client, server, options.handlers);
  const remote: SessionRemote | undefined =
    net && transport && server.transport !== "stdio"
      ? {
          url: server.url,
          sessionId: () => net.sessionIdOf(transport),
          terminate: () => net.terminateSession(transport),
          isUnauthorized: net.isUnauthorized,
          httpStatusOf: net.httpStatusOf,
          // Later in the session the connect budget is long spent: a login gets its own.
          ...(auth && login
            ? {
                reauthorize: () =>
                  login.loginAgain(
                    server,
                    { ...options, signal: AbortSignal.timeout(server.connectTimeoutMs) },
                    auth,
                    net.finishOn(transport),
                    steps,
                  ),
              }
            : {}),
        }
      : undefined;
  const session = new ClientSession({
    serverName: server.name,
    client,
    connection,
    modern,
    ...(stdio ? { stdio: stdio.transport } : {}),
    ...(remote ? { remote } : {}),
    tasks: clientTaskCalls(server, options, client, connection, modern),
    ...(server.logLevel ? { logLevel: server.logLevel } : {}),
  });
  try {
    await withRequestSignal(options.signal, (requestSignal) =>
      client.connect(connection, {
        ...(modern
          ? {
              prior: {
                kind: "modern" as const,
                discover: checkedAs(
                  specTypeSchemas.DiscoverResult,
                  discover,
                  "its answer to server/discover",
                ),
              },
            }
          : {}),
        signal: requestSignal,
        timeout: NO_SDK_TIMEOUT,
      }),
    );
    // The envelope the client stamps on its own requests, on the connection's too.
    if (modern)
      connection.useEnvelope({
        [PROTOCOL_VERSION_META_KEY]: session.protocolVersion,
        [CLIENT_INFO_META_KEY]: options.clientInfo,
        [CLIENT_CAPABILITIES_META_KEY]: capabilities,
      });
    await session.ready(options.signal);
    return session;
  } catch (error) {
    await session.closeQuietly();
    const unauthorized = net?.isUnauthorized(error) ?? false;
    // A 2026 failure is told by the dialer, which knows what the era question found.
    if (modern && !(auth && unauthorized)) throw error;
    if (!net || !login || !auth || !transport || !unauthorized)
      throw connectFailure(server, error, stdio, options.signal, steps?.describe());
    // A token refused: a person logs in; the redirect's code goes back to the transport, which
    // exchanges it, then a fresh connect (a started transport cannot be started again).
    if (loggedIn || !(await login.authorize(server, options, auth, net.finishOn(transport), steps)))
      throw new ToolSourceError<McpServerErrorCode>(
        "needs_auth",
        `Server "${server.name}" needs you to log in (OAuth authorization). Run: pseudoclaude mcp login ${server.name}`,
        { cause: error },
      );
    return connectSession(server, options, stdio, discover, true);
  }
}

/**
 * What a failed connect says: the connect budget spent, a stdio process that ended (with its
 * stderr), or the server's answer, cut short; `step` is the OAuth step that failed, if one did.
 */
function connectFailure(
  server: McpServerConfig,
  error: unknown,
  stdio: EarlyStdio | undefined,
  signal: AbortSignal,
  step: string | undefined,
): PseudoClaudeError {
  const cause = { cause: error };
  if (error instanceof ToolSourceError) return error;
  let failure: PseudoClaudeError;
  const stderr = server.transport === "stdio" && stdio ? stderrOf(server, stdio.tail) : "";
  // Checked first: when the budget ran out, we are the ones who ended the process.
  if (signal.aborted)
    failure = new ToolSourceError<McpServerErrorCode>(
      "connect_timeout",
      `No MCP handshake within the connect budget of ${server.connectTimeoutMs} ms.${stderr}`,
      cause,
    );
  else if (server.transport === "stdio")
    failure =
      (stdio && stdioEndedEarly(server, error, stdio.transport, stdio.tail)) ||
      new ToolSourceError<McpServerErrorCode>(
        "connect_failed",
        `${error instanceof Error ? error.message : String(error)}${stderr}`,
        cause,
      );
  else
    failure = new ToolSourceError<McpServerErrorCode>(
      "connect_failed",
      `Cannot connect to ${server.url}: ${describeHttpError(error)}`,
      cause,
    );
  // Say which OAuth step failed and what the server answered, not only the SDK's verdict.
  if (step) failure.message = `${failure.message} (${step})`;
  return failure;
}

function describeHttpError(error: unknown): string {
  if (!(error instanceof Error)) return boundedAnswer(String(error));
  const cause = (error as { cause?: { code?: string } }).cause;
  if (cause?.code) return `${boundedAnswer(error.message)} (${cause.code})`;
  const status = (error as { status?: unknown }).status;
  const message = boundedAnswer(error.message);
  return typeof status === "number" ? `HTTP ${status}: ${message}` : message;
}

/** Most of a message a person reads: the SDK pastes the server's whole answer into it. */
const ANSWER_CHARS = 300;

/**
 * The SDK's message with the server's answer cut short: an HTML error page (a proxy's 502) is
 * read as its title and text, not 10 KB of markup, and nothing runs past a few lines.
 */
export function boundedAnswer(message: string): string {
  let text = message;
  if (/<(!doctype|html|head|body)\b/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    const start = text.search(/<(!doctype|html|head|body)\b/i);
    const page = text
      .slice(start)
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]+>/g, " ");
    text = `${text.slice(0, start)}an HTML page${title ? ` "${title}"` : ""}:${page}`;
  }
  text = text.replace(/\s+/g, " ").trim();
  return text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}… (cut)` : text;
}
