import type { ToolCall, ToolProgress } from "../contracts/tool-call.js";
import type { ToolTaskMode, ToolTaskUpdate } from "../contracts/tool-task.js";
import { journaledCall } from "../journal/journaled-call.js";
import { IN_PROCESS_JOURNAL, type JournalDecisionRequest } from "../journal/run-journal.js";
import type { ExecuteOptions } from "../registry/tool-registry.js";
import { TOOL_SEARCH_SOURCE } from "../tool-search/search-tool.js";
import { afterCallHookContext, callHookContext } from "./call-hook-context.js";
import { turnNumber } from "./call-origin.js";
import { decideCalls, type RunnableCall } from "./decide-stage.js";
import { planBatches } from "./execution-plan.js";
import { innerCallsOf } from "./inner-call-step.js";
import { type RecordedCalls, recordCalls } from "./record-stage.js";
import type { ToolCallStepDeps, ToolCallStepOptions } from "./tool-call-step.js";

/**
 * One model turn's tool calls (or one direct call) as a pipeline: decide each call in order
 * (decide-stage.ts: routing, hooks, policy, approval), run the allowed ones in batches
 * (RunStage below: the registry's runner), then adapt and record every result, denials included,
 * in call order (record-stage.ts).
 */
export async function runToolCalls(
  deps: ToolCallStepDeps,
  calls: readonly ToolCall[],
  options: ToolCallStepOptions,
): Promise<RecordedCalls> {
  const stage = new RunStage(deps, options);
  const decided = await decideCalls(deps, calls, options, stage.scopeSignal);
  const runnable = decided.filter((item): item is RunnableCall => item.prepared !== undefined);
  await stage.runAll(runnable);
  return recordCalls(deps, decided, options.origin);
}

/**
 * The run stage: a turn's allowed calls through the registry's runner (once each), the journal
 * and the `afterToolCall` hooks.
 */
class RunStage {
  private idle: AbortSignal | undefined;

  constructor(
    private readonly deps: ToolCallStepDeps,
    private readonly options: ToolCallStepOptions,
  ) {}

  /**
   * Hooks and approvers are promised a signal; when no one can cancel, one that never aborts
   * is made for them on first need (a signal per call would cost more than the call path).
   */
  readonly scopeSignal = (): AbortSignal => {
    if (this.options.signal) return this.options.signal;
    this.idle ??= new AbortController().signal;
    return this.idle;
  };

  /** Consecutive read-only calls run together, a side-effect call alone; one call plainly. */
  async runAll(runnable: readonly RunnableCall[]): Promise<void> {
    if (runnable.length === 1) return this.run(runnable[0]!);
    for (const batch of planBatches(
      runnable,
      (item) => item.prepared.tool.definition.safety === "read_only",
    ))
      await Promise.all(batch.map((item) => this.run(item)));
  }

  private async run(item: RunnableCall): Promise<void> {
    const { deps, options } = this;
    const { journal } = options;
    const turn = turnNumber(options.origin);
    const trace = item.span.trace;
    // Built by assignment: spreads of optional parts made an object each, on every call.
    const execute: ExecuteOptions = { fork: deps.fork, agent: deps.agent, judge: deps.judge };
    // Only our search tool may load tools into the conversation.
    if (item.prepared.source === TOOL_SEARCH_SOURCE) execute.toolSearch = deps.toolSearch;
    if (options.signal) execute.signal = options.signal;
    if (options.timeoutMs !== undefined) execute.timeoutMs = options.timeoutMs;
    if (trace) execute.trace = trace;
    const relay = options.onProgress;
    if (relay || deps.listening("tool-progress"))
      execute.onProgress = (progress: ToolProgress) => {
        relay?.(progress);
        if (deps.listening("tool-progress"))
          deps.emit("tool-progress", { turn, call: item.call, progress });
      };
    // A durable run's session lives in its engine's state, which a step cannot write: its tasks
    // are in the run's event stream instead.
    const record = journal === IN_PROCESS_JOURNAL ? deps.recordTask : undefined;
    if (record || deps.listening("tool-task"))
      execute.onTask = (task: ToolTaskUpdate) => {
        record?.(item.call, task);
        deps.emit("tool-task", { turn, call: item.call, task });
      };
    // Timed only for a listener: the default call path stays free of the clock.
    const timed = deps.listening("tool-run-end");
    if (deps.listening("tool-run-start")) deps.emit("tool-run-start", { turn, call: item.call });
    const began = timed ? performance.now() : 0;
    // A tool that makes inner calls is not one step: each of its calls is (see InnerCalls).
    if (item.prepared.tool.definition.innerCalls) {
      const outer = innerCallsOf(
        (calls, stepOptions) => runToolCalls(deps, calls, stepOptions),
        deps,
        options,
        item.call,
        turn,
      );
      execute.inner = outer.calls;
      execute.signal = outer.signal;
      item.result = await item.span.executing(() => deps.registry.run(item.prepared, execute));
      outer.rethrow();
    }
    // In process and untraced (the default) a call is just run: no step name, no closure.
    else if (journal === IN_PROCESS_JOURNAL && !trace)
      item.result = await deps.registry.run(item.prepared, execute);
    else {
      const runIt = (task?: ToolTaskMode) =>
        deps.registry.run(item.prepared, task ? { ...execute, task } : execute);
      item.result = await item.span.executing(
        journal === IN_PROCESS_JOURNAL
          ? runIt
          : () =>
              journaledCall(
                journal,
                `turn-${turn}:${item.call.id}`,
                item.call,
                item.prepared.tool.definition,
                runIt,
                (request) => this.askAgain(request),
                this.scopeSignal,
              ),
      );
    }
    if (deps.hooks.has("afterToolCall")) {
      const after = await deps.hooks.afterToolCall(
        afterCallHookContext(
          callHookContext(
            deps.scope(),
            this.scopeSignal,
            item.call,
            item.prepared.tool.definition,
            turn,
          ),
          item.result,
        ),
      );
      item.result = after.result;
      if (after.notes.length > 0) item.hooks = [...(item.hooks ?? []), ...after.notes];
    }
    if (timed)
      deps.emit("tool-run-end", {
        turn,
        call: item.call,
        result: item.result,
        durationMs: performance.now() - began,
      });
  }

  /** A replayed side-effect call that may have run once already is asked about like an `ask`. */
  private async askAgain(request: JournalDecisionRequest): Promise<unknown> {
    const { journal } = this.options;
    if (journal.awaitDecision) return journal.awaitDecision(request);
    if (!this.deps.approve) return "deny";
    try {
      return await this.deps.approve(request);
    } catch {
      return "deny";
    }
  }
}
