import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { McpCallError, type RemoteCallResult } from "./mcp-session.js";

interface Pending {
  resolve(result: RemoteCallResult): void;
  reject(error: Error): void;
}

/**
 * `tools/call` straight over the transport, for the hot path (no progress wanted): the SDK
 * client validates every request and response with zod and keeps per-request bookkeeping that
 * a plain call does not need. Requests use string ids (`pc-N`) so they never meet the SDK's
 * numeric ones; responses to them are taken off the transport before the SDK sees them, every
 * other message goes to the SDK as before. Cancellation sends `notifications/cancelled` as the
 * SDK would.
 */
export class DirectCalls {
  private readonly pending = new Map<string, Pending>();
  private next = 0;

  constructor(private readonly transport: Transport) {
    const sdkOnMessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (this.take(message)) return;
      sdkOnMessage?.(message, extra);
    };
    const sdkOnClose = transport.onclose;
    transport.onclose = () => {
      this.failAll(new McpCallError("session", "Connection closed"));
      sdkOnClose?.();
    };
  }

  call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<RemoteCallResult> {
    if (signal.aborted)
      return Promise.reject(
        new McpCallError("cancelled", "The call was cancelled before it was sent."),
      );
    this.next += 1;
    const id = `pc-${this.next}`;
    return new Promise<RemoteCallResult>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        // As the SDK does: tell the server, then give up on the answer.
        void this.transport
          .send({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: id, reason: String(signal.reason) },
          })
          .catch(() => undefined);
        reject(new McpCallError("cancelled", "The call was cancelled."));
      };
      this.pending.set(id, {
        resolve: (result) => {
          signal.removeEventListener("abort", onAbort);
          resolve(result);
        },
        reject: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      signal.addEventListener("abort", onAbort, { once: true });
      this.transport
        .send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })
        .catch((error: unknown) => {
          if (this.pending.delete(id)) {
            signal.removeEventListener("abort", onAbort);
            reject(
              new McpCallError("transport", error instanceof Error ? error.message : String(error)),
            );
          }
        });
    });
  }

  /** A response to one of our requests: settle it and keep it from the SDK. */
  private take(message: JSONRPCMessage): boolean {
    const id = (message as { id?: unknown }).id;
    if (typeof id !== "string" || "method" in message) return false;
    const waiting = this.pending.get(id);
    if (!waiting) return false;
    this.pending.delete(id);
    const error = (message as { error?: { code?: unknown; message?: unknown } }).error;
    if (error) {
      waiting.reject(
        new McpCallError("protocol", `MCP error ${String(error.code)}: ${String(error.message)}`),
      );
      return true;
    }
    const result = (message as { result?: Record<string, unknown> }).result;
    if (
      !result ||
      typeof result !== "object" ||
      (result.content !== undefined && !Array.isArray(result.content))
    ) {
      waiting.reject(
        new McpCallError("protocol", "The server answered tools/call with a malformed result."),
      );
      return true;
    }
    const out: RemoteCallResult = {
      content: (result.content ?? []) as RemoteCallResult["content"],
    };
    if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
    if (result.isError === true) out.isError = true;
    if (result._meta && typeof result._meta === "object")
      out.meta = result._meta as Record<string, unknown>;
    waiting.resolve(out);
    return true;
  }

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const entry of waiting) entry.reject(error);
  }
}
