// What the connection does differently in the 2026-07-28 era, on the messages themselves.
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import type { Era } from "./era.js";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

/** The method whose request id names a subscription. */
export const LISTEN = "subscriptions/listen";

/**
 * A result without `resultType` is a complete one: the specification says a client MUST assume
 * so, while the v2 client refuses such a result.
 */
export function withResultType(message: JSONRPCMessage): JSONRPCMessage {
  const result = (message as { result?: unknown }).result;
  if (result === null || typeof result !== "object" || Array.isArray(result)) return message;
  if ("resultType" in result) return message;
  return { ...message, result: { ...result, resultType: "complete" } } as JSONRPCMessage;
}

/**
 * A notification naming a subscription (its `_meta` subscription id, or a
 * `notifications/cancelled` of it) by the id the client gave it; `listenOf` says the client's id
 * of the subscription the connection sent under an id, if it is one.
 */
export function withSubscriptionIds(
  message: JSONRPCMessage,
  listenOf: (id: unknown) => string | number | undefined,
): JSONRPCMessage {
  const params = (message as { params?: Record<string, unknown> }).params;
  if (!params) return message;
  const meta = params._meta as Record<string, unknown> | undefined;
  const named = listenOf(meta?.[SUBSCRIPTION_ID]);
  const cancelled =
    (message as { method: string }).method === "notifications/cancelled"
      ? listenOf(params.requestId)
      : undefined;
  if (named === undefined && cancelled === undefined) return message;
  return {
    ...message,
    params: {
      ...params,
      ...(cancelled !== undefined ? { requestId: cancelled } : {}),
      ...(named !== undefined ? { _meta: { ...meta, [SUBSCRIPTION_ID]: named } } : {}),
    },
  } as JSONRPCMessage;
}

/** The requests whose `Mcp-Name` header mirrors a field of their params, and which field. */
const NAMED_BY: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/**
 * 2026-07-28 on the wire: a result without `resultType` is complete, a listen's id names its
 * subscription, and over HTTP no session: each request a stream of its own (closed to cancel
 * it), the standard headers taken from the message as the v2 transport derives them
 * (`MCP-Protocol-Version` from its envelope, `Mcp-Method`, and `Mcp-Name` from the name, URI
 * or task id the request names), and a 400
 * that carries the request's JSON-RPC error taken as its answer.
 */
export const ERA_2026: Era = {
  connection: { completeResults: true, subscriptions: true },
  http: {
    perRequestStreams: true,
    refusalsAnswer: true,
    headersOf(message) {
      const { id, method, params } = message as {
        id?: unknown;
        method?: string;
        params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
      };
      const headers: Record<string, string> = {};
      const version = params?._meta?.[PROTOCOL_VERSION];
      // Requests only: a notification carries none of them.
      if (id === undefined || typeof method !== "string" || typeof version !== "string")
        return headers;
      headers["mcp-protocol-version"] = version;
      headers["mcp-method"] = method;
      const field = Object.hasOwn(NAMED_BY, method) ? NAMED_BY[method] : undefined;
      const name = field ? params?.[field] : undefined;
      if (typeof name === "string") headers["mcp-name"] = headerValue(name);
      return headers;
    },
  },
};

/**
 * A name as an HTTP field value, by the revision's rule for `Mcp-Name` and `Mcp-Param-*`: as it
 * is when it is visible ASCII (or tabs) without surrounding spaces, else UTF-8 in base64
 * between `=?base64?` and `?=` (so is a value that looks like that already, or an empty one).
 */
function headerValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    /^[\t\x20-\x7e]*$/.test(value) &&
    !(value.startsWith("=?base64?") && value.endsWith("?="));
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}
