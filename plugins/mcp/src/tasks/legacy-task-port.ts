import type {
  ConnectedMcpSessionPort,
  DispatchOptions,
  JsonRpcResponse,
  SessionTaskCapabilities,
} from "@modelcontextprotocol/ext-tasks/client";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { NO_SDK_TIMEOUT, withRequestSignal } from "../session/request-signal.js";

/** Any JSON object: the Tasks library checks what it gets against its own schemas. */
const ANY_RESULT = z.looseObject({});

/**
 * The official Tasks library's view of a 2025-11-25 session on the 1.x SDK client: requests go
 * out through the client (its transport, its authorization, its ids), `notifications/tasks/status`
 * come back through it. Server requests a task makes (an elicitation with its related-task
 * `_meta`) are answered by the client's own handlers, as any other, so none are routed here.
 */
export class LegacyTaskPort implements ConnectedMcpSessionPort {
  readonly taskCapabilities: SessionTaskCapabilities;
  private readonly notificationListeners = new Set<(notification: never) => void>();
  private readonly invalidationListeners = new Set<(reason: unknown) => void>();
  private closed = false;

  constructor(
    private readonly client: Client,
    readonly endpointId: string,
  ) {
    const tasks = client.getServerCapabilities()?.tasks;
    this.taskCapabilities = tasks
      ? { generation: "v1", capabilities: structuredClone(tasks) as never }
      : { generation: "none" };
    const previous = client.fallbackNotificationHandler;
    client.fallbackNotificationHandler = async (notification) => {
      await previous?.(notification);
      for (const listener of [...this.notificationListeners]) listener(notification as never);
    };
  }

  get invalidated(): boolean {
    return this.closed;
  }

  async dispatch(request: unknown, options: DispatchOptions = {}): Promise<JsonRpcResponse> {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const timeout = options.context?.requestTimeoutMs ?? NO_SDK_TIMEOUT;
    const run = (signal: AbortSignal | undefined) =>
      this.client.request({ method, ...(params ? { params } : {}) } as never, ANY_RESULT, {
        ...(signal ? { signal } : {}),
        timeout,
      });
    try {
      const result = options.signal
        ? await withRequestSignal(options.signal, run)
        : await run(undefined);
      return { kind: "result", result: result as never };
    } catch (error) {
      if (error instanceof McpError && error.code !== -32001)
        return {
          kind: "error",
          error: {
            code: error.code,
            message: error.message,
            ...(error.data !== undefined ? { data: error.data as never } : {}),
          },
        };
      throw error;
    }
  }

  onServerRequest(): () => void {
    return () => undefined;
  }

  onNotification(listener: (notification: never) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  onInvalidated(listener: (reason: unknown) => void): () => void {
    this.invalidationListeners.add(listener);
    return () => this.invalidationListeners.delete(listener);
  }

  /** The session ended: the library stops every task it drives on it. */
  invalidate(reason: unknown): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of [...this.invalidationListeners]) listener(reason);
  }
}
