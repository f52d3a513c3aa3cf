import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { type PseudoClaudeError } from "@pseudoclaude/core";
import type { McpLogLevel, McpServerConfig } from "../config/server-config.js";
import { type McpServerErrorCode, ToolSourceError } from "../mcp-errors.js";
import type { OAuthStepRecorder } from "../oauth/oauth-steps.js";
import type { Connection } from "../wire/connection.js";
import { StderrTail } from "../wire/stderr-tail.js";
import { StdioProcessTransport, stdioTransport } from "../wire/stdio-transport.js";
import { answerElicitation, answerSampling, clientCapabilities } from "./era-handlers.js";
import type { DialOptions, McpSession } from "./mcp-session.js";
import { noSdkValidation } from "./no-sdk-validation.js";
import { NO_SDK_TIMEOUT, withRequestSignal } from "./request-signal.js";
import { SdkSession } from "./sdk-session.js";
import { stderrOf, stdioEndedEarly } from "./stdio-failure.js";

/**
 * A stdio server's transport, spawned by the dialer before this module loaded, and the
 * connection above it that asked its era.
 */
export interface EarlyStdio {
  transport: StdioProcessTransport;
  connection: Connection;
  tail: StderrTail;
}

/**
 * Connect to `server` with `@modelcontextprotocol/sdk` 1.x; with sdk-session.ts the only code
 * that uses the SDK client. Loaded by SdkDialer on the first dial, so an agent that never
 * connects never loads the SDK.
 */
export async function connectWithSdk(
  server: McpServerConfig,
  options: DialOptions,
  early: EarlyStdio | undefined,
  authorized = false,
): Promise<McpSession> {
  const client = new Client(options.clientInfo, {
    capabilities: clientCapabilities(server, options.handlers),
    jsonSchemaValidator: noSdkValidation,
  });
  installHandlers(client, server, options);
  const tail = early?.tail ?? new StderrTail(options.stderrLines ?? 40);
  // What only remote servers need (HTTP transports, OAuth) loads with the first of them: an
  // agent of stdio servers never loads it (~100 ms of CPU on its first dial, measured).
  const remote = server.transport === "stdio" ? undefined : await import("./sdk-http.js");
  const auth = remote?.authProviderFor(server, options);
  const steps = auth && server.transport !== "stdio" ? remote?.oauthSteps(server.url) : undefined;
  const transport = early?.transport ?? createTransport(server, tail, options, remote, auth, steps);
  // Later in the session the connect budget is long spent: an authorization gets its own.
  const reauthorize =
    auth && remote
      ? () =>
          remote.authorize(
            server,
            { ...options, signal: AbortSignal.timeout(server.connectTimeoutMs) },
            auth,
            remote.finishOn(transport),
            steps,
          )
      : undefined;
  try {
    const session = await SdkSession.connect(
      { name: server.name, ...(server.transport === "stdio" ? {} : { url: server.url }) },
      client,
      transport,
      options.signal,
      reauthorize,
      remote?.support,
      server.transport === "http"
        ? remote?.callLaneFor(transport, server.url, server.headers, auth)
        : undefined,
      early?.connection,
    );
    if (server.logLevel && session.capabilities.logging)
      await askLogLevel(client, server.logLevel, options.signal);
    return session;
  } catch (error) {
    if (!auth || !remote?.support.isUnauthorized(error)) {
      const failure = describeConnectFailure(server, error, transport, tail, options.signal);
      // Say which OAuth step failed and what the server answered, not only the SDK's verdict.
      const step = steps?.describe();
      if (step) failure.message = `${failure.message} (${step})`;
      throw failure;
    }
    if (
      authorized ||
      !(await remote.authorize(server, options, auth, remote.finishOn(transport), steps))
    )
      throw needsAuth(server, error);
    // A started transport cannot be started again: the second attempt uses fresh ones.
    return connectWithSdk(server, options, undefined, true);
  }
}

function needsAuth(server: McpServerConfig, error: unknown): ToolSourceError<McpServerErrorCode> {
  return new ToolSourceError<McpServerErrorCode>(
    "needs_auth",
    `Server "${server.name}" needs you to log in (OAuth authorization). Run: pseudoclaude mcp login ${server.name}`,
    { cause: error },
  );
}

/**
 * `logging.level`: the least severe message the server sends. A server that refuses is left
 * at its own default; the session is no worse for it.
 */
async function askLogLevel(client: Client, level: McpLogLevel, signal: AbortSignal) {
  await withRequestSignal(signal, (requestSignal) =>
    client.setLoggingLevel(level, { signal: requestSignal, timeout: NO_SDK_TIMEOUT }),
  ).catch(() => undefined);
}

function installHandlers(client: Client, server: McpServerConfig, options: DialOptions): void {
  const { handlers } = options;
  const { log } = handlers;
  if (log)
    client.setNotificationHandler(LoggingMessageNotificationSchema, async ({ params }) =>
      log(server.name, {
        level: params.level,
        ...(params.logger ? { logger: params.logger } : {}),
        data: params.data,
      }),
    );
  // Without the capability the SDK refuses the request itself (method not found).
  if (handlers.elicit)
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      answerElicitation(request.params as never, server, handlers, extra.signal),
    );
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: handlers.roots() }));
  if (server.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      const answer = await answerSampling(request.params, server, handlers, extra.signal);
      if (!answer)
        throw new McpError(ErrorCode.InvalidRequest, "Sampling is not available in this client.");
      return answer;
    });
  }
}

function createTransport(
  server: McpServerConfig,
  tail: StderrTail,
  options: DialOptions,
  remote: typeof import("./sdk-http.js") | undefined,
  authProvider?: OAuthClientProvider,
  steps?: OAuthStepRecorder,
): Transport {
  if (server.transport === "stdio") return stdioTransport(server, tail, options);
  return remote!.createHttpTransport(server, authProvider, steps);
}

function describeConnectFailure(
  server: McpServerConfig,
  error: unknown,
  transport: Transport,
  tail: StderrTail,
  signal: AbortSignal,
): PseudoClaudeError {
  const cause = { cause: error };
  if (server.transport === "stdio") {
    const stderr = stderrOf(server, tail);
    // Checked first: when the budget ran out, we are the ones who ended the process.
    if (signal.aborted) return budgetSpent(server, stderr, cause);
    const stdio = transport instanceof StdioProcessTransport ? transport : undefined;
    const ended = stdioEndedEarly(server, error, stdio, tail);
    if (ended) return ended;
    return new ToolSourceError<McpServerErrorCode>(
      "connect_failed",
      `${error instanceof Error ? error.message : String(error)}${stderr}`,
      cause,
    );
  }
  if (signal.aborted) return budgetSpent(server, "", cause);
  return new ToolSourceError<McpServerErrorCode>(
    "connect_failed",
    `Cannot connect to ${server.url}: ${describeHttpError(error)}`,
    cause,
  );
}

/** No handshake within the connect budget; `stderr` is the stdio server's tail, or nothing. */
function budgetSpent(
  server: McpServerConfig,
  stderr: string,
  cause: { cause: unknown },
): ToolSourceError<McpServerErrorCode> {
  return new ToolSourceError<McpServerErrorCode>(
    "connect_timeout",
    `No MCP handshake within the connect budget of ${server.connectTimeoutMs} ms.${stderr}`,
    cause,
  );
}

function describeHttpError(error: unknown): string {
  if (!(error instanceof Error)) return boundedAnswer(String(error));
  const cause = (error as { cause?: { code?: string } }).cause;
  if (cause?.code) return `${boundedAnswer(error.message)} (${cause.code})`;
  const code = (error as { code?: number }).code;
  const message = boundedAnswer(error.message);
  return typeof code === "number" ? `HTTP ${code}: ${message}` : message;
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
