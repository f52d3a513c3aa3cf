import type { Client, CreateMessageRequestParams } from "@modelcontextprotocol/client";
import type { McpServerConfig } from "../config/server-config.js";
import type { ClientHandlers } from "../mcp-session.js";

/** The MCP Apps extension (SEP-1865): its identifier and the view type every host renders. */
export const APPS_EXTENSION = "io.modelcontextprotocol/ui";
export const MCP_APP_HTML = "text/html;profile=mcp-app";

/**
 * What the client declares, the same in both eras, and only what it can do:
 * - elicitation only when the agent was given an elicit callback (forms get their schema's
 *   defaults, URLs are shown). Without one every request would be declined unseen, and a
 *   server told so can take another way; a 2026-07-28 server also parses the capability on
 *   every request (~25 µs a call on the v2 server package, measured);
 * - roots, which stay the workspace for the agent's life, so no `listChanged`;
 * - sampling only for a server that has it enabled;
 * - the MCP Apps extension only while a host that renders app views is attached (a server then
 *   offers its `ui://` views; to a client that cannot show them it falls back to text).
 */
export function clientCapabilities(
  server: Pick<McpServerConfig, "sampling">,
  handlers?: Pick<ClientHandlers, "appHost" | "elicit">,
) {
  return {
    ...(handlers?.elicit ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
    roots: {},
    // Sampling with tools (2025-11-25): the server may offer the model tools it runs itself.
    ...(server.sampling ? { sampling: { tools: {} } } : {}),
    ...(handlers?.appHost
      ? { extensions: { [APPS_EXTENSION]: { mimeTypes: handlers.appHost.mimeTypes } } }
      : {}),
  };
}

/**
 * The answer to an elicitation, whichever era carried it (a 2025 server request, a 2026
 * `input_required` result): a form goes to the person with its schema, a URL is shown only
 * when it is an http(s) page, and anything else is declined unseen.
 */
export async function answerElicitation(
  params: {
    message: string;
    requestedSchema?: Record<string, unknown> | undefined;
    mode?: string | undefined;
    url?: string | undefined;
  },
  server: Pick<McpServerConfig, "name">,
  handlers: ClientHandlers,
  signal: AbortSignal,
): Promise<{ action: "accept" | "decline" | "cancel"; content?: ElicitContent }> {
  if (!handlers.elicit) return { action: "decline" };
  if (params.mode === "url") {
    const url = safeUrl(params.url);
    if (!url) return { action: "decline" };
    const answer = await handlers.elicit({
      source: `mcp:${server.name}`,
      message: params.message,
      mode: "url",
      url,
      requestedSchema: { type: "object", properties: {} },
      signal,
    });
    return { action: answer.action };
  }
  const answer = await handlers.elicit({
    source: `mcp:${server.name}`,
    message: params.message,
    requestedSchema: params.requestedSchema ?? { type: "object", properties: {} },
    signal,
  });
  return answer.action === "accept"
    ? { action: "accept", content: elicitContent(answer.content ?? {}) }
    : { action: answer.action };
}

/** A sampling request through the agent's provider, or undefined when sampling is off. */
export async function answerSampling(
  params: CreateMessageRequestParams,
  server: Pick<McpServerConfig, "name" | "samplingModels">,
  handlers: ClientHandlers,
  signal: AbortSignal,
) {
  if (!handlers.sample) return undefined;
  const response = await handlers.sample(
    {
      server: server.name,
      messages: params.messages,
      ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}),
      maxTokens: params.maxTokens,
      ...(params.tools ? { tools: params.tools } : {}),
      ...(params.toolChoice ? { toolChoice: params.toolChoice } : {}),
      ...(params.modelPreferences ? { modelPreferences: params.modelPreferences } : {}),
      ...(server.samplingModels?.length ? { models: server.samplingModels } : {}),
    },
    signal,
  );
  return { ...response };
}

/**
 * Handlers of the v2 client, registered by method name, for the 2026 era's input requests, and
 * its log messages: they come only for calls that ask for them (`logging.level`), as 2026-07-28
 * deprecates server logging, and a server that sends them unasked is heard all the same.
 */
export function installEraHandlers(
  client: Client,
  server: McpServerConfig,
  handlers: ClientHandlers,
): void {
  const { log } = handlers;
  if (log)
    client.setNotificationHandler("notifications/message", async ({ params }) =>
      log(server.name, {
        level: params.level,
        ...(params.logger ? { logger: params.logger } : {}),
        data: params.data,
      }),
    );
  const signalOf = (context: unknown) =>
    (context as { mcpReq?: { signal?: AbortSignal } })?.mcpReq?.signal ??
    new AbortController().signal;
  // Without the capability the client refuses the request itself, as the spec has it.
  if (handlers.elicit)
    client.setRequestHandler("elicitation/create", (request, context) =>
      answerElicitation(request.params, server, handlers, signalOf(context)),
    );
  client.setRequestHandler("roots/list", async () => ({ roots: handlers.roots() }));
  if (server.sampling)
    client.setRequestHandler("sampling/createMessage", async (request, context) => {
      const answer = await answerSampling(request.params, server, handlers, signalOf(context));
      if (!answer) throw new Error("Sampling is not available in this client.");
      return answer;
    });
}

/** What an accepted form may carry back: the revision's primitive values, per field. */
type ElicitContent = Record<string, string | number | boolean | string[]>;

/** The person's answers as the form's values; anything else a handler put there is left out. */
function elicitContent(content: Record<string, unknown>): ElicitContent {
  const kept: ElicitContent = {};
  for (const [key, value] of Object.entries(content)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      kept[key] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === "string"))
      kept[key] = value;
  }
  return kept;
}

function safeUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
