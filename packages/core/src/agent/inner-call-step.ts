import type { InnerCallOutcome, InnerCalls } from "../contracts/inner-calls.js";
import type { ToolCall } from "../contracts/tool-call.js";
import { toolFailure } from "../contracts/tool-result.js";
import { IN_PROCESS_JOURNAL } from "../journal/run-journal.js";
import type { RecordedCalls } from "./record-stage.js";
import type { ToolCallStepDeps, ToolCallStepOptions } from "./tool-call-step.js";

/** The pipeline a batch of calls goes through (`runToolCalls`), handed in by its caller. */
export type RunCalls = (
  calls: readonly ToolCall[],
  options: ToolCallStepOptions,
) => Promise<RecordedCalls>;

/**
 * The inner calls of one call of a tool that makes them (a code-mode program's): each goes
 * through the same pipeline as the model's calls (`runToolCalls`: hooks, the policy and a
 * person, the registry, events, the session) under the same journal, with an id and a step
 * that derive from the outer call and the order the tool made its calls, so a replay of the
 * outer call finds every record. A call's span nests under the outer call's, which is active
 * while the tool runs.
 */
export function innerCallsOf(
  run: RunCalls,
  deps: ToolCallStepDeps,
  options: ToolCallStepOptions,
  outer: ToolCall,
  turn: number,
): OuterCall {
  let waitedMs = 0;
  // The pipeline throws only when the run itself cannot go on (its journal failed, its engine
  // suspended it): that must end the run, not become the calling tool's failed result.
  const stop = new AbortController();
  let escaped: { error: unknown } | undefined;
  const stepOptions: ToolCallStepOptions = {
    origin: { kind: "inner", turn },
    signal: options.signal,
    timeoutMs: undefined,
    journal: options.journal,
    approver: options.approver,
    onApprovalWait: (ms) => {
      waitedMs += ms;
    },
  };
  // A durable engine matches a replay's steps to its record by the order they began; calls
  // that overlap begin their later steps in whatever order they finish, so there they run one
  // after another. In process nothing is replayed: they overlap as the tool makes them.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    if (options.journal === IN_PROCESS_JOURNAL) return work();
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const calls: InnerCalls = {
    call: (index, name, args, callOptions) =>
      inTurn(() => runOne(index, name, args, callOptions?.signal)),
    once: (name, fn) => options.journal.step(`turn-${turn}:${outer.id}:${name}`, async () => fn()),
    tools: () => deps.offered().filter((tool) => !tool.innerCalls),
    approvalWaitMs: () => waitedMs,
  };
  async function runOne(
    index: number,
    name: string,
    args: Record<string, unknown>,
    callSignal: AbortSignal | undefined,
  ): Promise<InnerCallOutcome> {
    const call: ToolCall = {
      id: `${outer.id}.${index}`,
      name,
      arguments: args,
      parentId: outer.id,
    };
    // A program running programs would multiply what one call may do past every limit.
    if (deps.registry.get(name)?.definition.innerCalls) {
      const reason = `"${name}" runs calls of its own; it cannot be called from inside another.`;
      return {
        decision: { verdict: "deny", reason, matched: { kind: "nested_inner_calls" } },
        result: toolFailure("denied", reason),
      };
    }
    const signal = callSignal ?? options.signal;
    let done: RecordedCalls;
    try {
      done = await run([call], { ...stepOptions, signal });
    } catch (error) {
      escaped ??= { error };
      stop.abort(error);
      throw error;
    }
    const record = done.records[0]!;
    // A durable run's session lives in its engine's state, which a step cannot write.
    if (options.journal === IN_PROCESS_JOURNAL) deps.recordInner?.(record);
    const { decision, approval, result } = record;
    return approval ? { decision, approval, result } : { decision, result };
  }
  return {
    calls,
    signal: options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal,
    rethrow() {
      if (escaped) throw escaped.error;
    },
  };
}

/** The outer call's side of its inner calls. */
export interface OuterCall {
  calls: InnerCalls;
  /** The outer call's signal: the run's, and aborted when an inner call could not go on. */
  signal: AbortSignal;
  /** After the outer call: throw what stopped an inner call's pipeline, if anything did. */
  rethrow(): void;
}
