// The official SDK clients of both lines, as a gateway's users run them: the v1 client
// (2025-11-25) and the v2 client pinned to either era, over real stdio or Streamable HTTP.
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

export type ClientKind = "v1" | "v2@2025-11-25" | "v2@2026-07-28";
export const CLIENT_KINDS: readonly ClientKind[] = ["v1", "v2@2025-11-25", "v2@2026-07-28"];

export interface Elicitation {
  message: string;
  requestedSchema?: unknown;
}

/** What the client's person answers (default: allow). */
export type Answer = (request: Elicitation) => {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
};

export interface ToolCallResult {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
  structuredContent?: unknown;
}

export interface GatewayClient {
  readonly kind: ClientKind;
  readonly protocolVersion: string | undefined;
  listTools(): Promise<
    Array<{ name: string; annotations?: Record<string, unknown>; _meta?: Record<string, unknown> }>
  >;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: {
      signal?: AbortSignal;
      onprogress?: (progress: { progress: number; total?: number }) => void;
    },
  ): Promise<ToolCallResult>;
  listResources(): Promise<Array<{ uri: string; name: string }>>;
  readResource(uri: string): Promise<{ contents: Array<{ uri: string; text?: string }> }>;
  listPrompts(): Promise<Array<{ name: string }>>;
  getPrompt(name: string, args?: Record<string, string>): Promise<{ messages: unknown[] }>;
  complete(
    ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string },
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<{ values: string[] }>;
  subscribeResource(uri: string): Promise<void>;
  unsubscribeResource(uri: string): Promise<void>;
  /** Every `notifications/resources/updated` URI so far, in order. */
  readonly resourceUpdates: string[];
  setLoggingLevel(level: string): Promise<void>;
  /** Every `notifications/message` so far, in order. */
  readonly logs: Array<{ level: string; logger?: string | undefined; data: unknown }>;
  /** Every elicitation the gateway sent, in order. */
  readonly elicitations: Elicitation[];
  answer: Answer;
  /** Resolves at the next `tools/list_changed` after this call. */
  nextToolsChange(): Promise<void>;
  close(): Promise<void>;
}

export type Connection =
  | { stdio: { command: string; args: string[]; env: Record<string, string>; cwd: string } }
  | { http: { url: string; token?: string | undefined } };

export interface ClientSetup {
  /** Declare elicitation (default true). */
  elicitation?: boolean;
}

/**
 * The SDK's stdio transports hand on every message of a chunk at once, while its clients run a
 * notification's handler a microtask later and settle an answer at once: a call's last progress,
 * read in the same chunk as its result, reaches a call already settled and is dropped
 * (typescript-sdk#2580; a loaded machine joins the two writes into one chunk). A client of
 * ours takes them a microtask apart, and so does this one, so a test asks what the gateway sent
 * and in what order, not how the client's pipe was read.
 */
function deliverApart(transport: {
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
}): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  let delivered = Promise.resolve();
  transport.onmessage = (message, extra) => {
    delivered = delivered
      .then(() => deliver(message, extra))
      .catch((error: Error) => transport.onerror?.(error));
  };
}

export async function connectClient(
  kind: ClientKind,
  connection: Connection,
  setup: ClientSetup = {},
): Promise<GatewayClient> {
  const elicitation = setup.elicitation ?? true;
  const elicitations: Elicitation[] = [];
  const waiters: Array<() => void> = [];
  const toolsChanged = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const resourceUpdates: string[] = [];
  const logs: GatewayClient["logs"] = [];
  const state = {
    answer: (() => ({ action: "accept", content: { allow: true } })) as Answer,
  };
  const onElicit = (params: Elicitation) => {
    elicitations.push(params);
    return state.answer(params);
  };
  const capabilities = elicitation ? { elicitation: { form: {} } } : {};
  const info = { name: `gateway-test-${kind}`, version: "1.0.0" };
  let client: ClientV1 | ClientV2;
  if (kind === "v1") {
    const v1 = new ClientV1(info, { capabilities });
    if (elicitation)
      v1.setRequestHandler(
        ElicitRequestSchema,
        async (request) => onElicit(request.params as Elicitation) as never,
      );
    v1.setNotificationHandler(ToolListChangedNotificationSchema, async () => toolsChanged());
    v1.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
      resourceUpdates.push(notification.params.uri);
    });
    v1.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
      logs.push(notification.params);
    });
    const transport =
      "stdio" in connection
        ? new StdioV1({ ...connection.stdio, stderr: "pipe" })
        : new HttpV1(new URL(connection.http.url), {
            requestInit: connection.http.token
              ? { headers: { Authorization: `Bearer ${connection.http.token}` } }
              : {},
          });
    await v1.connect(transport);
    if ("stdio" in connection) deliverApart(transport);
    client = v1;
  } else {
    // The v2 client speaks 2025-11-25 unless pinned to a modern revision.
    const v2 = new ClientV2(info, {
      capabilities,
      ...(kind === "v2@2026-07-28"
        ? { versionNegotiation: { mode: { pin: "2026-07-28" } } }
        : { versionNegotiation: { mode: "legacy" } }),
      listChanged: { tools: { onChanged: () => toolsChanged() } },
    } as never);
    if (elicitation)
      v2.setRequestHandler(
        "elicitation/create",
        async (request) => onElicit(request.params as Elicitation) as never,
      );
    v2.setNotificationHandler("notifications/resources/updated", async (notification) => {
      resourceUpdates.push(notification.params.uri);
    });
    v2.setNotificationHandler("notifications/message", async (notification) => {
      logs.push(notification.params);
    });
    const transport =
      "stdio" in connection
        ? new StdioV2({ ...connection.stdio, stderr: "pipe" })
        : new HttpV2(new URL(connection.http.url), {
            requestInit: connection.http.token
              ? { headers: { Authorization: `Bearer ${connection.http.token}` } }
              : {},
          });
    await v2.connect(transport as never);
    if ("stdio" in connection) deliverApart(transport);
    client = v2;
  }
  const any = client as unknown as {
    listTools(): Promise<{ tools: never[] }>;
    callTool(params: unknown, schema?: unknown, options?: unknown): Promise<ToolCallResult>;
    listResources(): Promise<{ resources: never[] }>;
    readResource(params: { uri: string }): Promise<never>;
    listPrompts(): Promise<{ prompts: never[] }>;
    getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<never>;
    complete(params: unknown): Promise<{ completion: { values: string[] } }>;
    subscribeResource(params: { uri: string }): Promise<unknown>;
    unsubscribeResource(params: { uri: string }): Promise<unknown>;
    setLoggingLevel(level: string): Promise<unknown>;
    getNegotiatedProtocolVersion?(): string | undefined;
    close(): Promise<void>;
  };
  return {
    kind,
    get protocolVersion() {
      return any.getNegotiatedProtocolVersion?.();
    },
    listTools: async () => (await any.listTools()).tools,
    callTool: (name, args, options = {}) =>
      kind === "v1"
        ? any.callTool({ name, arguments: args }, undefined, options)
        : any.callTool({ name, arguments: args }, options),
    listResources: async () => (await any.listResources()).resources,
    readResource: (uri) => any.readResource({ uri }),
    listPrompts: async () => (await any.listPrompts()).prompts,
    getPrompt: (name, args = {}) => any.getPrompt({ name, arguments: args }),
    complete: async (ref, argument, context) =>
      (
        await any.complete({
          ref,
          argument,
          ...(context ? { context: { arguments: context } } : {}),
        })
      ).completion,
    subscribeResource: async (uri) => {
      await any.subscribeResource({ uri });
    },
    unsubscribeResource: async (uri) => {
      await any.unsubscribeResource({ uri });
    },
    resourceUpdates,
    setLoggingLevel: async (level) => {
      await any.setLoggingLevel(level);
    },
    logs,
    elicitations,
    get answer() {
      return state.answer;
    },
    set answer(answer: Answer) {
      state.answer = answer;
    },
    nextToolsChange: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: () => any.close(),
  };
}
