import type { Disposable } from "@pseudoclaude/core/plugin";
import { type CallOptions, McpCallError } from "../mcp-session.js";

/**
 * What a transport that gives each request a stream of its own (HTTP) may be told of one of
 * ours, in the send options: `started` hands it the request's stop.
 */
export interface StartedRequest {
  started?(stop: () => void): void;
}

/** A JSON value, as an answer parsed from the wire holds. */
export type Json =
  | null
  | boolean
  | number
  | string
  | readonly Json[]
  | { readonly [key: string]: Json };

/** A JSON-RPC answer as it came: its result, or its error object. */
export type WireAnswer =
  | { kind: "result"; result: { readonly [key: string]: Json } }
  | { kind: "error"; error: { code: number; message: string; data?: Json } };

/**
 * One of the connection's own requests: its promise, its abort listener, how it settles. Its
 * answer is settled here, without the client's per-message parsing and bookkeeping, which a
 * plain call does not need: a call's promise resolves with the raw `result` (an error answer
 * rejects with McpCallError), an exchange's with the WireAnswer as it came.
 */
export class OwnRequest implements StartedRequest {
  readonly kind = "own";
  readonly promise: Promise<unknown>;
  listening: Disposable | undefined;
  sent = false;
  abortedBeforeSend = false;
  /** Ends the request's own stream, where the transport gives each request one (HTTP). */
  stop: (() => void) | undefined;

  /** The request is sent as its own send options (no object made per call): see StartedRequest. */
  started(stop: () => void): void {
    this.stop = stop;
  }
  private settle!: (value: unknown) => void;
  private fail!: (error: Error) => void;

  constructor(
    readonly id: number,
    /**
     * An exchange: answered as it came, given up on without a word to the server, failing with
     * the abort's reason.
     */
    readonly exchange: boolean,
    /** Called when the request is aborted after it was sent. */
    private readonly onAbort: (request: OwnRequest, reason: unknown) => void,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
  }

  /** The server's answer. */
  answered(message: { result?: unknown; error?: unknown }): void {
    this.listening?.dispose();
    const { result, error } = message;
    if (this.exchange) {
      this.settle(
        error !== undefined
          ? { kind: "error", error: error as { code: number; message: string; data?: unknown } }
          : { kind: "result", result: result ?? {} },
      );
      return;
    }
    if (error === undefined) {
      this.settle(result);
      return;
    }
    const {
      code,
      message: text,
      data,
    } = error as { code?: unknown; message?: unknown; data?: unknown };
    this.fail(
      new McpCallError("protocol", `MCP error ${String(code)}: ${String(text)}`, {
        ...(typeof code === "number"
          ? { rpc: { code, ...(data !== undefined ? { data } : {}) } }
          : {}),
      }),
    );
  }

  reject(error: Error): void {
    this.listening?.dispose();
    this.fail(error);
  }

  /** The request's abort (see listenForAbort). */
  aborted(reason: unknown): void {
    if (!this.sent) this.abortedBeforeSend = true;
    else this.onAbort(this, reason);
  }
}

/**
 * Why an abandoned request fails: a call's cancellation, or for an exchange (whose caller
 * judges its own abort: a timeout is not a person's Ctrl-C) the abort's own reason.
 */
export function cancelled(request: OwnRequest, reason: unknown, message: string): Error {
  if (!request.exchange) return new McpCallError("cancelled", message);
  return reason instanceof Error ? reason : new Error(String(reason ?? message));
}

/** Listen for a request's abort: `onAbort` when given (no signal made), else its signal. */
export function listenForAbort(
  cancel: Pick<CallOptions, "signal" | "onAbort">,
  request: OwnRequest,
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
