import type {
  ConnectedMcpSessionPort,
  SerializedTaskReference,
  TaskEnabledSession,
  TaskView,
  ToolExecution,
  WithTasksOptions,
} from "@modelcontextprotocol/ext-tasks/client";
import type { RuntimeCodec } from "@modelcontextprotocol/ext-tasks/core";
import type { ToolTaskReference, ToolTaskUpdate } from "@pseudoclaude/core/plugin";
import { type CallOptions, McpCallError, type RemoteCallResult } from "../mcp-session.js";
import { toRemoteCallResult } from "../session/results.js";
import { jsonObject } from "./json-value.js";
import { loadTasksLibrary } from "./tasks-library.js";

/** How long closing waits for the `tasks/cancel` of tasks still running. */
const CANCEL_ON_CLOSE_MS = 2_000;

type Execution = ToolExecution<Record<string, unknown>>;

/**
 * A task's result as it came: `toRemoteCallResult` checks its envelope, and a 2026 result
 * without `resultType` is a complete one (the specification: a client assumes "complete" when
 * it is absent), which the library's own check would refuse.
 */
const ANY_RESULT: RuntimeCodec<Record<string, unknown>> = {
  parse: (value) => ({ success: true, value: value as Record<string, unknown> }),
};

/**
 * Tool calls as MCP tasks, on the official Tasks library (`@modelcontextprotocol/ext-tasks`),
 * which speaks both eras' task protocols over a port each session provides. A call that the
 * server turns into a task is followed to its end: each status is reported (the kernel then
 * lifts the call's timeout, which bounds each request instead), the result comes back as an
 * ordinary tool result, and an aborted call cancels its task (`tasks/cancel`). In a durable
 * run the task is handed off as a reference and resumed from it, on this worker or another.
 */
export class TaskCalls {
  private tasks: Promise<TaskEnabledSession> | undefined;
  private madePort: ConnectedMcpSessionPort | undefined;
  private readonly running = new Set<Execution>();

  constructor(
    private readonly serverName: string,
    private readonly makePort: () => ConnectedMcpSessionPort,
    private readonly options: WithTasksOptions = {},
  ) {}

  /** The session's port, made once: it hooks the session's notifications. */
  private port(): ConnectedMcpSessionPort {
    this.madePort ??= this.makePort();
    return this.madePort;
  }

  async call(
    name: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<RemoteCallResult> {
    try {
      return await this.run(name, args, meta, options);
    } catch (error) {
      if (error instanceof McpCallError || options.signal.aborted) throw error;
      // The library's own errors (a tool that requires tasks on a server without them, a task
      // the server no longer knows) and the server's JSON-RPC errors: the server's end.
      const rpc = error as { code?: unknown; data?: unknown };
      throw new McpCallError(
        "protocol",
        `Call to "${name}" on MCP server "${this.serverName}" as a task failed: ${(error as Error).message}`,
        {
          cause: error,
          ...(typeof rpc.code === "number" ? { rpc: { code: rpc.code, data: rpc.data } } : {}),
        },
      );
    }
  }

  private async run(
    name: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<RemoteCallResult> {
    const tasks = await this.session();
    const { signal } = options;
    const requestTimeoutMs = options.requestTimeoutMs;
    const shared = requestTimeoutMs !== undefined ? { requestTimeoutMs } : {};
    const mode = options.taskMode;
    const execution = (
      mode && "resume" in mode
        ? await tasks.resumeTask(this.reference(mode.resume), {
            signal,
            resultCodec: ANY_RESULT,
            ...shared,
          })
        : await tasks.callTool(name, jsonObject(args), {
            signal,
            resultCodec: ANY_RESULT,
            task: { preference: "prefer" },
            ...(meta ? { metadata: jsonObject(meta) } : {}),
            ...shared,
          })
    ) as Execution;
    if (execution.kind === "immediate") return this.finished(await execution.result(), name);
    const first = execution.serializeReference();
    let last = update(first.taskId, undefined);
    const report = (view: TaskView | undefined) => {
      if (!view) return;
      const next = update(view.taskId, view);
      if (next.status === last.status && next.statusMessage === last.statusMessage) return;
      last = next;
      options.reportTask?.(next);
    };
    options.reportTask?.(last);
    if (mode && "handoff" in mode) {
      let reference: SerializedTaskReference | undefined;
      await execution.handoff((serialized) => {
        reference = serialized;
      });
      return { content: [], handoff: { task: last, reference: { ...reference! } } };
    }
    this.running.add(execution);
    // The person stopped the call (Ctrl-C, a closing agent, the task's timeout): the task
    // stops too, not only our waiting for it.
    const cancel = options.onAbort?.(() => void execution.cancel().catch(() => undefined));
    try {
      const { outcome } = await execution.settle({
        signal,
        onEvent: (event) => report(event.type === "task" ? event.task : event.outcome.task),
      });
      if (outcome.status === "failed" && first.generation === "v1") {
        // 2025-11-25 keeps a failed task's result (`tasks/result`): the server's own words.
        const stored = await this.storedResult(first.taskId, options).catch(() => undefined);
        if (stored) return { ...stored, isError: true };
      }
      return this.finished(outcome, name, last.taskId);
    } finally {
      cancel?.dispose();
      this.running.delete(execution);
    }
  }

  /** Stop waiting: every task still running is cancelled (briefly waited for), then the library. */
  async close(): Promise<void> {
    const running = [...this.running];
    this.running.clear();
    if (running.length > 0)
      await Promise.all(
        running.map((execution) =>
          execution.cancel(AbortSignal.timeout(CANCEL_ON_CLOSE_MS)).catch(() => undefined),
        ),
      );
    const tasks = this.tasks;
    this.tasks = undefined;
    await (await tasks?.catch(() => undefined))?.close().catch(() => undefined);
  }

  private session(): Promise<TaskEnabledSession> {
    this.tasks ??= loadTasksLibrary().then(({ withTasks }) => withTasks(this.port(), this.options));
    return this.tasks;
  }

  private async storedResult(
    taskId: string,
    options: CallOptions,
  ): Promise<RemoteCallResult | undefined> {
    const response = await this.port().dispatch(
      { method: "tasks/result", params: { taskId } },
      {
        signal: options.signal,
        ...(options.requestTimeoutMs !== undefined
          ? { context: { requestTimeoutMs: options.requestTimeoutMs } }
          : {}),
      },
    );
    if (response.kind !== "result") return undefined;
    const { content } = response.result as { content?: unknown };
    return Array.isArray(content) && content.length > 0
      ? { content: content as RemoteCallResult["content"] }
      : undefined;
  }

  /** A recorded reference, checked to be one of ours for this server before it is used. */
  private reference(recorded: ToolTaskReference): SerializedTaskReference {
    const { endpointId, generation, taskId, originalOperation } = recorded as Partial<
      Record<string, unknown>
    >;
    if (
      typeof endpointId !== "string" ||
      (generation !== "v1" && generation !== "v2") ||
      typeof taskId !== "string" ||
      originalOperation !== "tools/call"
    )
      throw new McpCallError(
        "protocol",
        `The recorded task of server "${this.serverName}" is not a task reference this client made: ${JSON.stringify(recorded).slice(0, 200)}.`,
      );
    return { endpointId, generation, taskId, originalOperation } as SerializedTaskReference;
  }

  /** A task's end as the call's result: its result, its failure as a tool error, or cancelled. */
  private finished(
    outcome: Awaited<ReturnType<Execution["result"]>>,
    name: string,
    taskId?: string,
  ): RemoteCallResult {
    const which = taskId ? `Task ${taskId} of "${name}"` : `Call to "${name}"`;
    if (outcome.status === "cancelled")
      throw new McpCallError(
        "cancelled",
        `${which} on MCP server "${this.serverName}" was cancelled.`,
      );
    if (outcome.status === "failed")
      return {
        content: [
          {
            type: "text",
            text: `${which} on MCP server "${this.serverName}" failed: ${outcome.error.message}`,
          },
        ],
        isError: true,
      };
    return toRemoteCallResult(outcome.result);
  }
}

function update(taskId: string, view: TaskView | undefined): ToolTaskUpdate {
  return {
    taskId,
    status: view?.status ?? "working",
    ...(view?.statusMessage !== undefined ? { statusMessage: view.statusMessage } : {}),
  };
}
