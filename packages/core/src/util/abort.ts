/** Why a tool call's signal was aborted; tools read `signal.reason` to tell apart. */
export class CallAbortReason extends Error {
  constructor(
    readonly kind: "timeout" | "cancelled",
    message: string,
  ) {
    super(message);
    this.name = kind === "timeout" ? "TimeoutError" : "AbortError";
  }
}

/** The abort reason of a signal as a `timeout` / `cancelled` kind, if it is one of ours. */
export function abortKind(signal: AbortSignal): "timeout" | "cancelled" | undefined {
  if (!signal.aborted) return undefined;
  const reason: unknown = signal.reason;
  if (reason instanceof CallAbortReason) return reason.kind;
  if (reason instanceof Error && reason.name === "TimeoutError") return "timeout";
  return "cancelled";
}
