import type { JsonRpcResponse } from "@modelcontextprotocol/ext-tasks/client";

/** What raw requests need of a transport: to send a JSON-RPC message. */
interface Sender {
  send(message: unknown): Promise<void>;
}

type Waiting = { resolve: (response: JsonRpcResponse) => void; reject: (error: Error) => void };

/**
 * JSON-RPC requests sent on a session's own transport beside its client, for the wire shapes
 * the v2 client refuses to carry (2026-07-28 Tasks: a `tools/call` answered with
 * `resultType: "task"`, `tasks/get`, `tasks/update`, `tasks/cancel`). Each has an id of its
 * own; its answer is taken off the transport before the client sees it, so the client never
 * hears of an id it did not send.
 */
export class RawRequests {
  private next = 0;
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly transport: Sender) {}

  /** Whether `message` answers one of ours (then it is taken, and not given to the client). */
  readonly take = (message: unknown): boolean => {
    const { id, result, error } = (message ?? {}) as {
      id?: unknown;
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    if (typeof id !== "string" || !this.waiting.has(id)) return false;
    const waiting = this.waiting.get(id)!;
    this.waiting.delete(id);
    waiting.resolve(
      error
        ? { kind: "error", error: error as never }
        : { kind: "result", result: result as never },
    );
    return true;
  };

  /** Send `request` and wait for its answer, within `signal` and `timeoutMs`. */
  async request(
    request: { method: string; params?: unknown },
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<JsonRpcResponse> {
    const id = `pc-raw-${++this.next}`;
    const answered = new Promise<JsonRpcResponse>((resolve, reject) =>
      this.waiting.set(id, { resolve, reject }),
    );
    // An abort while the request is still being sent rejects this before it is awaited: that
    // is no unhandled rejection, the await below (or the catch) reads it.
    answered.catch(() => undefined);
    const stop = (reason: unknown) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      waiting?.reject(reason instanceof Error ? reason : new Error(String(reason)));
    };
    const signals = [
      options.signal,
      options.timeoutMs !== undefined ? AbortSignal.timeout(options.timeoutMs) : undefined,
    ].filter((signal): signal is AbortSignal => signal !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    const onAbort = () => stop(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await this.transport.send({ jsonrpc: "2.0", id, ...request });
      return await answered;
    } catch (error) {
      stop(error);
      throw error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** The session ended: nothing more will be answered. */
  close(reason: Error): void {
    for (const id of [...this.waiting.keys()]) {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      waiting?.reject(reason);
    }
  }
}
