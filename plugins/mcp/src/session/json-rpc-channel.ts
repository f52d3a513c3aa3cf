import type {
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import type { Disposable } from "@pseudoclaude/core/plugin";
import type { HttpCallLane } from "./http-call-lane.js";
import { type CallOptions, McpCallError } from "./mcp-session.js";

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/**
 * One request of the channel: its promise, its abort listener, and how it settles. One object
 * a request, where closures for each outcome were made before.
 */
class ChannelRequest implements Pending {
  readonly promise: Promise<unknown>;
  listening: Disposable | undefined;
  sent = false;
  abortedBeforeSend = false;
  private settle!: (result: unknown) => void;
  private fail!: (error: Error) => void;

  constructor(
    private readonly channel: JsonRpcChannel,
    readonly id: string,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
  }

  resolve(result: unknown): void {
    this.listening?.dispose();
    this.settle(result);
  }

  reject(error: Error): void {
    this.listening?.dispose();
    this.fail(error);
  }

  /** The call's abort (see listenForAbort). */
  aborted(reason: unknown): void {
    if (!this.sent) this.abortedBeforeSend = true;
    else this.channel.cancelRequest(this, reason);
  }
}

/**
 * The one owner of a transport's callbacks. The SDK client connects to the channel as to any
 * transport and gets every message, except answers to the requests the channel sent itself
 * (`request`): those are settled here, without the client's per-message zod parsing and
 * bookkeeping, which a plain call does not need. The channel's requests use string ids
 * (`pc-N`) so they never meet the client's numeric ones; cancelling one sends
 * `notifications/cancelled` as the client would.
 */
export class JsonRpcChannel implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private readonly pending = new Map<string, Pending>();
  private next = 0;
  /** The `_meta` every message of ours carries (2026-07-28's per-request envelope). */
  private envelope: Record<string, unknown> | undefined;

  constructor(
    private readonly transport: Transport,
    /** A cheaper way to POST the channel's own requests over Streamable HTTP (HttpCallLane). */
    private readonly lane?: HttpCallLane,
  ) {
    transport.onmessage = (message, extra) => {
      if (!this.settle(message)) this.onmessage?.(message, extra);
    };
    transport.onclose = () => {
      // Our calls fail first, then the client learns the connection is gone.
      this.failAll(new McpCallError("session", "Connection closed"));
      this.onclose?.();
    };
    transport.onerror = (error) => this.onerror?.(error);
  }

  /**
   * From now on every request and notification the channel sends carries `envelope` in its
   * `_meta`, under the request's own keys (which win), as the v2 client stamps its own.
   */
  useEnvelope(envelope: Record<string, unknown>): void {
    this.envelope = envelope;
  }

  /**
   * The v2 transport's: each request has a stream of its own (2026-07-28 over HTTP), and is
   * cancelled by closing it rather than by `notifications/cancelled`. The client asks.
   */
  get hasPerRequestStream(): boolean | undefined {
    return (this.transport as { hasPerRequestStream?: boolean }).hasPerRequestStream;
  }

  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.transport.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.transport.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.transport.send(message, options);
  }

  close(): Promise<void> {
    this.lane?.close();
    return this.transport.close();
  }

  /**
   * Send a request and resolve with its raw `result`, unchecked (the caller checks the shape
   * it needs). A JSON-RPC error answer, a closed connection and an abort reject with
   * McpCallError; a failed send rejects with the transport's own error. The abort is heard
   * through `cancel.onAbort` when given, so the call's AbortSignal is never made; otherwise
   * through `cancel.signal`.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    cancel: Pick<CallOptions, "signal" | "onAbort">,
  ): Promise<unknown> {
    this.next += 1;
    const id = `pc-${this.next}`;
    const request = new ChannelRequest(this, id);
    request.listening = listenForAbort(cancel, request);
    if (request.abortedBeforeSend) {
      request.reject(new McpCallError("cancelled", "The call was cancelled before it was sent."));
      return request.promise;
    }
    this.pending.set(id, request);
    request.sent = true;
    const message: JSONRPCMessage = { jsonrpc: "2.0", id, method, params: this.stamped(params) };
    (this.lane ?? this.transport).send(message).catch((error: unknown) => {
      // As the transport threw it: the session tells an expired HTTP session or a refused
      // token from a broken pipe.
      if (this.pending.delete(id)) request.reject(error as Error);
    });
    return request.promise;
  }

  /** A request aborted after it was sent: tell the server, then give up on the answer. */
  cancelRequest(request: ChannelRequest, reason: unknown): void {
    if (!this.pending.delete(request.id)) return;
    this.lane?.abandon(request.id);
    // Where each request has a stream of its own, closing it (abandon) is the cancellation.
    if (!(this.lane && this.hasPerRequestStream))
      void this.transport
        .send({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: this.stamped({ requestId: request.id, reason: String(reason) }),
        })
        .catch(() => undefined);
    request.reject(new McpCallError("cancelled", "The call was cancelled."));
  }

  private stamped(params: Record<string, unknown>): Record<string, unknown> {
    const envelope = this.envelope;
    if (!envelope) return params;
    const meta = params._meta as Record<string, unknown> | undefined;
    return { ...params, _meta: meta ? { ...envelope, ...meta } : envelope };
  }

  /** An answer to one of our requests: settle it and keep it from the client. */
  private settle(message: JSONRPCMessage): boolean {
    const id = (message as { id?: unknown }).id;
    if (typeof id !== "string" || "method" in message) return false;
    const waiting = this.pending.get(id);
    if (!waiting) return false;
    this.pending.delete(id);
    const error = (message as { error?: { code?: unknown; message?: unknown; data?: unknown } })
      .error;
    if (error)
      waiting.reject(
        new McpCallError("protocol", `MCP error ${String(error.code)}: ${String(error.message)}`, {
          ...(typeof error.code === "number"
            ? {
                rpc: {
                  code: error.code,
                  ...(error.data !== undefined ? { data: error.data } : {}),
                },
              }
            : {}),
        }),
      );
    else waiting.resolve((message as { result?: unknown }).result);
    return true;
  }

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const entry of waiting) entry.reject(error);
  }
}

/** Listen for a call's abort: `onAbort` when given (no signal made), else its signal. */
function listenForAbort(
  cancel: Pick<CallOptions, "signal" | "onAbort">,
  request: ChannelRequest,
): Disposable {
  if (cancel.onAbort) return cancel.onAbort((reason) => request.aborted(reason));
  const signal = cancel.signal;
  if (signal.aborted) {
    request.aborted(signal.reason);
    return { dispose() {} };
  }
  const onAbort = () => request.aborted(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  return { dispose: () => signal.removeEventListener("abort", onAbort) };
}
