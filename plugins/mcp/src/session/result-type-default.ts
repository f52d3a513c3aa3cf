type MessageHandler = (message: unknown, ...rest: unknown[]) => void;

/**
 * A 2026-07-28 result without `resultType` is a complete one: the specification says a client
 * MUST assume "complete" when it is absent, while the v2 client refuses such a result. Answers
 * are given the field on their way from the transport to the client, nothing else changes.
 * `take` sees each message first: what it takes (the answers to raw requests) never reaches
 * the client.
 */
export function assumeCompleteResults<T extends object>(
  transport: T,
  take?: (message: unknown) => boolean,
): T {
  let wrapped: MessageHandler | undefined;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => wrapped,
    set: (handler: MessageHandler | undefined) => {
      wrapped =
        handler &&
        ((message, ...rest) => {
          if (take?.(message)) return;
          handler(withResultType(message), ...rest);
        });
    },
  });
  return transport;
}

function withResultType(message: unknown): unknown {
  const result = (message as { result?: unknown } | null)?.result;
  if (result === null || typeof result !== "object" || Array.isArray(result)) return message;
  if ("resultType" in result) return message;
  return { ...(message as object), result: { ...result, resultType: "complete" } };
}
