import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/client";
import { type CallOptions, McpCallError } from "../mcp-session.js";
import type { ConnectionEra } from "./era.js";
import { LISTEN, withResultType, withSubscriptionIds } from "./era-2026.js";
import {
  cancelled,
  listenForAbort,
  OwnRequest,
  type StartedRequest,
  type WireAnswer,
} from "./own-request.js";

/** A transport the connection sends on: its own requests go with their StartedRequest. */
export type WireTransport = Transport & {
  send(message: JSONRPCMessage, options?: TransportSendOptions & StartedRequest): Promise<void>;
};

export type { ConnectionEra, WireAnswer };

/** What a server may say before a client listens (nothing, before initialize), at most. */
const MAX_HELD = 100;

/** A request the connection sent: for itself (`own`) or for the SDK client (`client`). */
type Pending = OwnRequest | ClientRequest;

interface ClientRequest {
  readonly kind: "client";
  readonly clientId: string | number;
  readonly method: string;
}

/**
 * The one owner of a server's wire above its transport: one id space and one table of requests
 * waiting for their answer, for the SDK client's requests and for the connection's own. The
 * SDK client connects to the connection as to any transport; each request it sends is given
 * the connection's next id on the way out and its own id back on the answer, so the server
 * sees one sequence of ids, and an answer to an id nobody sent reaches nobody. The connection's
 * own requests (a plain `tools/call`, the task extension's wire shapes the client refuses)
 * are settled here. No timer of its own: a request ends with its answer, its caller's abort,
 * or the connection.
 */
export class Connection implements Transport {
  // `| undefined`: a client that hands the connection back (a trial) unsets them.
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    | (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void)
    | undefined;

  private readonly pending = new Map<number, Pending>();
  private next = 0;
  /** The transport's start, when `open` started it before a client did. */
  private opened: Promise<void> | undefined;
  /** A client has started (and, on trial, not handed the connection back). */
  private listening = false;
  /** What the server said while no client listened, for the next one; then a close, if any. */
  private held: Array<{ message: JSONRPCMessage; extra?: MessageExtraInfo } | { error: Error }> =
    [];
  private closedUnheard = false;
  /** Lent to a client that may fail to connect: its close hands the connection back. */
  private onTrial = false;
  /** The `_meta` every request of ours carries (2026-07-28's per-request envelope). */
  private envelope: Record<string, unknown> | undefined;

  constructor(
    private readonly transport: WireTransport,
    private era: ConnectionEra = {},
  ) {
    transport.onmessage = (message, extra) => this.received(message, extra);
    transport.onclose = () => {
      // Our requests fail first, then the client learns the connection is gone.
      this.failAll(new McpCallError("session", "Connection closed"));
      if (this.listening) this.onclose?.();
      else this.closedUnheard = true;
    };
    transport.onerror = (error) => {
      if (this.listening) this.onerror?.(error);
      else if (this.held.length < MAX_HELD) this.held.push({ error });
    };
  }

  /**
   * Start the transport before any client, to ask the server something first (the era probe,
   * on the process that will serve the session: no second spawn). What else the server says
   * meanwhile, and a close, are kept for the client that starts next.
   */
  open(): Promise<void> {
    if (!this.opened) {
      this.opened = this.transport.start();
      // A failed start is the client's `start()` to report; kept here, it is no stray rejection.
      this.opened.catch(() => undefined);
    }
    return this.opened;
  }

  /**
   * Lend the connection to a client that may fail to connect: until `keep`, that client's close
   * hands it back, the process running, for another client (the 2026 one, when a slow server
   * answered `server/discover` after all). `keep(false)` ends the loan with a real close.
   */
  lend(): void {
    this.onTrial = true;
  }

  async keep(kept: boolean): Promise<void> {
    this.onTrial = false;
    if (!kept) await this.close();
  }

  /** Speak `era` from now on (the era probe may settle it after the connection began). */
  useEra(era: ConnectionEra): void {
    this.era = era;
  }

  /**
   * From now on every request of ours carries `envelope` in its `_meta`, under the request's
   * own keys (which win), as the v2 client stamps its own.
   */
  useEnvelope(envelope: Record<string, unknown>): void {
    this.envelope = envelope;
  }

  /**
   * The v2 transport's: each request has a stream of its own (2026-07-28 over HTTP), and is
   * cancelled by closing it rather than by `notifications/cancelled`. The client asks.
   */
  get hasPerRequestStream(): boolean {
    return (this.transport as { hasPerRequestStream?: boolean }).hasPerRequestStream === true;
  }

  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.transport.setProtocolVersion?.(version);
  }

  /** A client's start: the transport's (once), then what was kept for it, in order. */
  async start(): Promise<void> {
    this.listening = true;
    await this.open();
    const held = this.held;
    this.held = [];
    for (const item of held)
      if ("message" in item) this.onmessage?.(item.message, item.extra);
      else this.onerror?.(item.error);
    if (this.closedUnheard) this.onclose?.();
  }

  /** What the SDK client sends: its requests under our ids, its cancellations likewise. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const { id, method } = message as { id?: string | number; method?: string };
    if (method !== undefined && id !== undefined) {
      const ours = this.nextId();
      this.pending.set(ours, { kind: "client", clientId: id, method });
      return this.transport.send({ ...message, id: ours } as JSONRPCMessage, options);
    }
    if (method === "notifications/cancelled") {
      const params = (message as { params?: { requestId?: unknown } }).params;
      const ours = this.idOfClients(params?.requestId);
      // The client gave up on it: its answer, if one comes, goes to nobody.
      if (ours === undefined) return Promise.resolve();
      this.pending.delete(ours);
      return this.transport.send(
        { ...message, params: { ...params, requestId: ours } } as JSONRPCMessage,
        options,
      );
    }
    return this.transport.send(message, options);
  }

  close(): Promise<void> {
    if (this.onTrial) {
      // Handed back: its client's requests are forgotten, the next client starts afresh.
      this.listening = false;
      this.onmessage = undefined;
      this.onclose = undefined;
      this.onerror = undefined;
      for (const [id, pending] of this.pending)
        if (pending.kind === "client") this.pending.delete(id);
      return Promise.resolve();
    }
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
    return this.sent(method, this.stamped(params), cancel, false);
  }

  /**
   * Send a request as it is (its `_meta` already framed) on the transport and resolve with its
   * answer, error or result, as the server sent it: for wire shapes the client refuses to
   * carry (the Tasks extension's). Aborting it gives up on the answer without telling the
   * server, whose task is cancelled by its own request.
   */
  exchange(
    request: { method: string; params?: Record<string, unknown> },
    signal?: AbortSignal,
  ): Promise<WireAnswer> {
    // An exchange's request settles with its WireAnswer (OwnRequest.answered).
    return this.sent(
      request.method,
      request.params,
      signal ? { signal } : undefined,
      true,
    ) as Promise<WireAnswer>;
  }

  /** What an own request calls when aborted after it was sent (one function per connection). */
  private readonly abandon = (request: OwnRequest, reason: unknown): void =>
    this.cancel(request, reason);

  /** Give up on one of ours after it was sent: tell the server (unless quiet), then reject. */
  private cancel(request: OwnRequest, reason: unknown): void {
    if (!this.pending.delete(request.id)) return;
    request.stop?.();
    // Where each request has a stream of its own, closing it (stop) is the cancellation.
    if (!request.exchange && !this.hasPerRequestStream)
      void this.transport
        .send({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: this.stamped({ requestId: request.id, reason: String(reason) }),
        })
        .catch(() => undefined);
    request.reject(cancelled(request, reason, "The call was cancelled."));
  }

  private sent(
    method: string,
    params: Record<string, unknown> | undefined,
    cancel: Pick<CallOptions, "signal" | "onAbort"> | undefined,
    exchange: boolean,
  ): Promise<unknown> {
    const request = new OwnRequest(this.nextId(), exchange, this.abandon);
    if (cancel) request.listening = listenForAbort(cancel, request);
    if (request.abortedBeforeSend) {
      request.reject(
        cancelled(request, cancel?.signal.reason, "The call was cancelled before it was sent."),
      );
      return request.promise;
    }
    this.pending.set(request.id, request);
    request.sent = true;
    const message = { jsonrpc: "2.0", id: request.id, method, ...(params ? { params } : {}) };
    this.transport.send(message as JSONRPCMessage, request).catch((error: unknown) => {
      // As the transport threw it: the session tells an expired HTTP session or a refused
      // token from a broken pipe.
      if (this.pending.delete(request.id)) request.reject(error as Error);
    });
    return request.promise;
  }

  private nextId(): number {
    this.next += 1;
    return this.next;
  }

  /** Our id of the client's request `clientId`, while it waits (cancellations are rare). */
  private idOfClients(clientId: unknown): number | undefined {
    for (const [id, pending] of this.pending)
      if (pending.kind === "client" && pending.clientId === clientId) return id;
    return undefined;
  }

  private stamped(params: Record<string, unknown>): Record<string, unknown> {
    const envelope = this.envelope;
    if (!envelope) return params;
    const meta = params._meta as Record<string, unknown> | undefined;
    return { ...params, _meta: meta ? { ...envelope, ...meta } : envelope };
  }

  /** A message from the server: an answer to one of ours or the client's, or for the client. */
  private received(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const { id } = message as { id?: unknown };
    if (id === undefined || "method" in message) {
      if (!this.listening) {
        // A server has nothing to say before initialize; a chatty one is kept to a bound.
        if (this.held.length < MAX_HELD) this.held.push({ message, ...(extra ? { extra } : {}) });
        return;
      }
      this.onmessage?.(
        this.era.subscriptions ? withSubscriptionIds(message, this.listenOf) : message,
        extra,
      );
      return;
    }
    const pending = typeof id === "number" ? this.pending.get(id) : undefined;
    if (!pending) {
      // Late (given up on) or never sent: nobody waits for it.
      this.onerror?.(new Error(`An answer to a request that is not waiting (id ${String(id)}).`));
      return;
    }
    this.pending.delete(id as number);
    if (pending.kind === "own") {
      pending.answered(message);
      return;
    }
    const answer = { ...message, id: pending.clientId } as JSONRPCMessage;
    this.onmessage?.(this.era.completeResults ? withResultType(answer) : answer, extra);
  }

  /** The connection is gone: our requests fail; the client's are the client's to fail. */
  /** The client's id of the subscription we sent as `id`, if it is one. */
  private readonly listenOf = (id: unknown): string | number | undefined => {
    const pending = typeof id === "number" ? this.pending.get(id) : undefined;
    return pending?.kind === "client" && pending.method === LISTEN ? pending.clientId : undefined;
  };

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const entry of waiting) if (entry.kind === "own") entry.reject(error);
  }
}
