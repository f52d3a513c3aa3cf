// What the connection does differently in the 2026-07-28 era, on the messages themselves.
import type { JSONRPCMessage } from "@modelcontextprotocol/client";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

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
