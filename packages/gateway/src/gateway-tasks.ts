import { randomUUID } from "node:crypto";
import {
  hasTaskClientCapabilityV2,
  TASKS_EXTENSION_ID_V2,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import {
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";

/** The Tasks extension's id, as servers advertise it and clients declare it. */
export const TASKS_EXTENSION = TASKS_EXTENSION_ID_V2;

export type GatewayTaskStatus = "working" | "completed" | "failed" | "cancelled";

/** A task as `tasks/get` shows it (SEP-2663's DetailedTask, with the result or error inlined). */
export interface DetailedTask {
  taskId: string;
  status: GatewayTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  result?: CallToolResult;
  error?: { code: number; message: string; data?: unknown };
}

export interface GatewayTasksOptions {
  /** How long a task is kept after it is created. */
  ttlMs?: number;
  /** How often clients are told to poll. */
  pollIntervalMs?: number;
  /** Tasks kept at once; the oldest finished one makes room for a new one. */
  maxTasks?: number;
}

interface TaskRecord {
  task: DetailedTask;
  /** Who created it: another principal cannot read or cancel it. */
  owner: string | undefined;
  controller: AbortController;
  expiresAt: number;
}

const TERMINAL = new Set<GatewayTaskStatus>(["completed", "failed", "cancelled"]);

/**
 * Tool calls that run as tasks (the 2026-07-28 Tasks extension, SEP-2663) for clients that
 * declared the extension: the call runs on after `tools/call` answers with the task, the
 * client polls `tasks/get` (the tool's result, or a protocol error, inlined once it is done)
 * and may `tasks/cancel` it, which aborts the agent's call and so the upstream server's task.
 * Tasks live in memory for `ttlMs` from their creation; a restart forgets them.
 */
export class GatewayTasks {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxTasks: number;

  constructor(options: GatewayTasksOptions = {}) {
    this.ttlMs = options.ttlMs ?? 60 * 60_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.maxTasks = options.maxTasks ?? 1_000;
  }

  /**
   * Create a task for `run` and start it. The task is stored before this returns, so a
   * `tasks/get` right after the answer finds it.
   */
  start(
    owner: string | undefined,
    run: (signal: AbortSignal) => Promise<CallToolResult>,
  ): DetailedTask {
    this.evict();
    this.makeRoom();
    const now = new Date().toISOString();
    const record: TaskRecord = {
      task: {
        taskId: randomUUID(),
        status: "working",
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: this.ttlMs,
        pollIntervalMs: this.pollIntervalMs,
      },
      owner,
      controller: new AbortController(),
      expiresAt: Date.now() + this.ttlMs,
    };
    this.tasks.set(record.task.taskId, record);
    run(record.controller.signal).then(
      (result) => this.settle(record, { status: "completed", result }),
      (error: unknown) =>
        this.settle(record, {
          status: "failed",
          error: {
            code: error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError,
            message: error instanceof Error ? error.message : String(error),
          },
        }),
    );
    return { ...record.task };
  }

  get(taskId: string, owner: string | undefined): DetailedTask {
    return { ...this.find(taskId, owner).task };
  }

  /** Cancel a task still running; a finished one is left as it is (the ack is the same). */
  cancel(taskId: string, owner: string | undefined): void {
    const record = this.find(taskId, owner);
    if (TERMINAL.has(record.task.status)) return;
    this.settle(record, { status: "cancelled", statusMessage: "Cancelled by the client." });
    record.controller.abort(new Error("The client cancelled the task."));
  }

  /** Stop every running task (the gateway is closing). */
  close(): void {
    for (const record of this.tasks.values())
      if (!TERMINAL.has(record.task.status)) record.controller.abort(new Error("Gateway closed."));
    this.tasks.clear();
  }

  private find(taskId: string, owner: string | undefined): TaskRecord {
    this.evict();
    const record = this.tasks.get(taskId);
    // Another principal's task is reported exactly as an unknown one.
    if (!record || record.owner !== owner)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`, {
        taskId,
      });
    return record;
  }

  private settle(record: TaskRecord, update: Partial<DetailedTask>): void {
    // The first terminal status stands: a call that ends after its cancel stays cancelled.
    if (TERMINAL.has(record.task.status)) return;
    Object.assign(record.task, update, { lastUpdatedAt: new Date().toISOString() });
  }

  private evict(): void {
    const now = Date.now();
    for (const [taskId, record] of this.tasks)
      if (record.expiresAt <= now) {
        record.controller.abort(new Error("The task expired."));
        this.tasks.delete(taskId);
      }
  }

  private makeRoom(): void {
    if (this.tasks.size < this.maxTasks) return;
    for (const [taskId, record] of this.tasks)
      if (TERMINAL.has(record.task.status)) {
        this.tasks.delete(taskId);
        if (this.tasks.size < this.maxTasks) return;
      }
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `The gateway is running ${this.maxTasks} tasks already; try again when one has finished.`,
    );
  }
}

/**
 * Whether this request's client declared the Tasks extension: on 2026-07-28 per request, in
 * the `_meta` envelope (a client may opt in for one call that way).
 */
export function clientHasTasks(ctx: ServerContext): boolean {
  return hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope });
}

/** The `-32021` error for a client that must declare the Tasks extension first. */
export function tasksRequired(what: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.MissingRequiredClientCapability,
    `${what} needs the Tasks extension (${TASKS_EXTENSION}); declare it in the client's capabilities.`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}
