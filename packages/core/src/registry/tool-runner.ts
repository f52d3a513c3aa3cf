import type { Tool } from "../contracts/tool.js";
import type { ToolCall } from "../contracts/tool-call.js";
import { type ToolResult, toolFailure } from "../contracts/tool-result.js";
import type { Redactor } from "../diagnostics/redactor.js";
import { errorMessage } from "../errors.js";
import { abortedResult, CallCancellation } from "./call-cancellation.js";
import { CallLimiter } from "./call-limiter.js";
import { type CallFacts, withCallMetadata } from "./call-metadata.js";
import { DEFAULT_TOOL_TIMEOUT_MS, resolveEffectiveTimeout } from "./effective-timeout.js";
import { redactResult } from "./redact-result.js";
import { TimedCall } from "./timed-call.js";
import { ToolCallContext } from "./tool-call-context.js";
import {
  DEFAULT_MAX_CONCURRENT_CALLS,
  type ExecuteOptions,
  type PreparedCall,
  type ToolRegistryOptions,
} from "./tool-registry.js";

const DEFAULT_ABORT_GRACE_MS = 1_000;

/**
 * The registry's runner: a prepared call under its one effective timeout, its caller's abort
 * and the agent's call slots; the result redacted and its metadata written once.
 */
export class ToolRunner {
  private readonly defaultTimeoutMs: number;
  private readonly abortGraceMs: number;
  private readonly workspace: string;
  private readonly limiter: CallLimiter;
  private readonly redactor: Redactor | undefined;

  constructor(
    options: ToolRegistryOptions,
    /** Finds another tool, for `ToolExecutionContext.judge`. */
    private readonly lookup: (name: string) => Tool | undefined,
  ) {
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    this.abortGraceMs = options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
    this.workspace = options.workspace ?? process.cwd();
    this.limiter = new CallLimiter(options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS);
    this.redactor = options.redactor;
  }

  /** Run a prepared call (see `ToolRegistry.run`); a field, so the registry hands it out as is. */
  readonly run = async (
    prepared: PreparedCall,
    options: ExecuteOptions = {},
  ): Promise<ToolResult> => {
    const started = performance.now();
    const { call, tool } = prepared;
    const timeout = resolveEffectiveTimeout(
      options.timeoutMs,
      tool.definition.timeoutMs,
      this.defaultTimeoutMs,
    );
    let waited = false;
    if (options.signal?.aborted) {
      const result = toolFailure(
        "cancelled",
        `Call to "${call.name}" was cancelled before it started.`,
      );
      return withCallMetadata(result, factsOf(prepared, timeout, waited), started);
    }
    // A sub-agent's call only waits for its child's calls, which take slots of their own:
    // holding one too would let as many sub-agents as slots wait on each other for ever.
    // A sub-agent's or a program's own calls take their slots; holding one for it too could
    // leave them none.
    const slotted = tool.definition.subAgent !== true && tool.definition.innerCalls !== true;
    if (slotted && !this.limiter.tryAcquire()) {
      waited = true;
      if (!(await this.limiter.wait(options.signal))) {
        const result = toolFailure(
          "cancelled",
          `Call to "${call.name}" was cancelled while it waited for one of the agent's ${this.limiter.limit} call slots.`,
        );
        return withCallMetadata(result, factsOf(prepared, timeout, waited), started);
      }
    }
    try {
      const result = await this.runTimed(prepared, timeout.timeoutMs, options);
      return withCallMetadata(
        redactResult(result, this.redactor),
        factsOf(prepared, timeout, waited),
        started,
      );
    } finally {
      if (slotted) this.limiter.release();
    }
  };

  /** The call under its one timeout and its caller's abort (see TimedCall). */
  private runTimed(
    prepared: PreparedCall,
    timeoutMs: number,
    options: ExecuteOptions,
  ): Promise<ToolResult> {
    const { call, tool } = prepared;
    const cancellation = new CallCancellation();
    const timed = new TimedCall(
      cancellation,
      call,
      timeoutMs,
      this.abortGraceMs,
      options.signal,
      abortedResult,
    );
    const context = new ToolCallContext(
      call.id,
      timeoutMs,
      this.workspace,
      cancellation,
      options.onProgress,
      tool,
      options.judge,
      this.lookup,
    );
    if (options.fork) context.fork = options.fork;
    if (options.agent) context.agent = options.agent;
    if (options.trace) context.trace = options.trace;
    if (options.toolSearch) context.toolSearch = options.toolSearch;
    if (options.inner) context.inner = options.inner;
    context.tasks(timed, options.onTask);
    if (options.task) context.taskMode = options.task;
    void this.invoke(tool, call, prepared.arguments, cancellation, context, timed);
    return timed.result;
  }

  /** Runs the tool and hands its answer (a failure too: it never throws) to `timed`. */
  private async invoke(
    tool: Tool,
    call: ToolCall,
    args: Record<string, unknown>,
    cancellation: CallCancellation,
    context: ToolCallContext,
    timed: TimedCall,
  ): Promise<void> {
    let result: ToolResult;
    try {
      result = await tool.execute(args, context);
      if (!result || typeof result !== "object" || !Array.isArray(result.content)) {
        result = toolFailure("tool_error", `Tool "${call.name}" returned a malformed result.`);
      } else result.metadata ??= {};
    } catch (error) {
      result = cancellation.aborted
        ? abortedResult(call, cancellation.reason)
        : toolFailure("tool_error", `Tool "${call.name}" failed: ${errorMessage(error)}`);
    }
    timed.finish(result);
  }
}

function factsOf(
  prepared: PreparedCall,
  timeout: { timeoutMs: number; source: string },
  waited: boolean,
): CallFacts {
  return {
    tool: prepared.call.name,
    callId: prepared.call.id,
    source: prepared.source,
    timeout,
    waited,
  };
}
