import type { InnerCalls } from "../contracts/inner-calls.js";
import type { PolicyDecision } from "../contracts/policy-engine.js";
import type { CallingAgent, ForkCapability } from "../contracts/run-records.js";
import type { Tool, ToolExecutionContext } from "../contracts/tool.js";
import type { ToolProgress } from "../contracts/tool-call.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import type { ToolTaskMode, ToolTaskUpdate } from "../contracts/tool-task.js";
import type { ToolTrace } from "../contracts/tool-trace.js";
import type { ToolSearchCapability } from "../tool-search/search-tool.js";
import type { CallAbortReason } from "../util/abort.js";
import type { Disposable } from "../util/disposable.js";
import type { CallCancellation } from "./call-cancellation.js";
import type { TimedCall } from "./timed-call.js";

type Decide = (
  tool: ToolDefinition,
  args: Record<string, unknown>,
) => PolicyDecision | Promise<PolicyDecision>;

/**
 * The context one call's tool runs with. A class whose functions are made on first read: a
 * literal with its getter and three closures was made for every call, and most tools read
 * one of them or none. Each function, once read, is the same function every time and keeps
 * its context (`const { reportProgress } = context` works). Its members are accessors on the
 * class, so a spread of the context (`{ ...context }`) does not copy them.
 */
export class ToolCallContext implements ToolExecutionContext {
  fork?: ForkCapability;
  agent?: CallingAgent;
  trace?: ToolTrace;
  toolSearch?: ToolSearchCapability;
  inner?: InnerCalls;
  readonly #cancellation: CallCancellation;
  readonly #progress: ((progress: ToolProgress) => void) | undefined;
  readonly #tool: Tool;
  readonly #decide: Decide | undefined;
  readonly #lookup: (name: string) => Tool | undefined;
  #onAbort: ToolExecutionContext["onAbort"] | undefined;
  #reportProgress: ToolExecutionContext["reportProgress"] | undefined;
  #judge: ToolExecutionContext["judge"];
  #timed: TimedCall | undefined;
  #onTask: ((update: ToolTaskUpdate) => void) | undefined;
  #reportTask: ToolExecutionContext["reportTask"] | undefined;
  taskMode?: ToolTaskMode;

  constructor(
    readonly callId: string,
    readonly timeoutMs: number,
    readonly workspace: string,
    cancellation: CallCancellation,
    progress: ((progress: ToolProgress) => void) | undefined,
    tool: Tool,
    decide: Decide | undefined,
    lookup: (name: string) => Tool | undefined,
  ) {
    this.#cancellation = cancellation;
    this.#progress = progress;
    this.#tool = tool;
    this.#decide = decide;
    this.#lookup = lookup;
  }

  /** What task reports do: the call's timer, and whoever listens (set by the registry). */
  tasks(timed: TimedCall, onTask: ((update: ToolTaskUpdate) => void) | undefined): void {
    this.#timed = timed;
    this.#onTask = onTask;
  }

  get reportTask(): ToolExecutionContext["reportTask"] {
    this.#reportTask ??= (update) => {
      this.#timed?.becomeTask(this.#tool.definition.taskTimeoutMs);
      this.#onTask?.({ ...update });
    };
    return this.#reportTask;
  }

  get signal(): AbortSignal {
    return this.#cancellation.signal;
  }

  get progressWanted(): boolean {
    return this.#progress !== undefined;
  }

  get onAbort(): (listener: (reason: CallAbortReason) => void) => Disposable {
    const cancellation = this.#cancellation;
    this.#onAbort ??= (listener) => cancellation.onAbort(listener);
    return this.#onAbort;
  }

  get reportProgress(): (progress: ToolProgress) => void {
    const progress = this.#progress;
    this.#reportProgress ??= (update) => progress?.(update);
    return this.#reportProgress;
  }

  /** Undefined when no policy runs the call (a registry used on its own). */
  get judge(): ToolExecutionContext["judge"] {
    const decide = this.#decide;
    if (!decide) return undefined;
    const tool = this.#tool;
    const lookup = this.#lookup;
    this.#judge ??= async (args, toolName) => {
      const judged = toolName === undefined ? tool : lookup(toolName);
      return judged ? await decide(judged.definition, args) : undefined;
    };
    return this.#judge;
  }
}
