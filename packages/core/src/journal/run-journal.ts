import type { ApprovalAnswer, ApprovalRequest } from "../contracts/callbacks.js";

/**
 * Every step of a run with an effect outside the process goes through a journal: a model turn,
 * a tool call, a compaction, an approval. The default journal just runs each step. A durable
 * journal (`@pseudoclaude/durable-restate`) records each step's result once and, when a run
 * is replayed on another worker after a crash or a deploy, returns the record instead of
 * running the step again, so a run survives the process that started it.
 *
 * What a step returns crosses a process boundary: it must be plain JSON (a provider turn's
 * message and usage, a `ToolResult`, a decision). No functions, class instances, `undefined`
 * in arrays, `Date`s or `BigInt`s.
 */
export interface RunJournal {
  /**
   * Run `fn` once and record what it returns under `name`; on a replay, return the record
   * without running `fn`. Names are unique in a run and the same on every replay: the loop
   * builds them from the turn number and the model's call ids.
   */
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Wait for a person's decision that arrives from outside the process (`pseudoclaude
   * approve ID allow|deny`); a durable journal holds no worker while it waits. Without it the
   * agent's own approver answers.
   */
  awaitDecision?(request: JournalDecisionRequest): Promise<ApprovalAnswer>;
  /**
   * Resolve once every step recorded so far is durable. An engine may hand back a step's
   * result before its record is stored; a side-effect call waits here after recording that it
   * started, so a worker that dies during the call cannot lose that record.
   */
  checkpoint?(): Promise<void>;
  /**
   * What a replay does with a side-effect call that started and never finished (its worker
   * died while it ran): `ask` (default) turns it into an approval request saying it may have
   * run once already, `retry` runs it again, `fail` ends it with an `interrupted` result.
   * Read-only calls are always run again.
   */
  readonly onInterruptedSideEffect?: InterruptedSideEffect | undefined;
}

export type InterruptedSideEffect = "ask" | "retry" | "fail";

/** What a journal's `awaitDecision` is asked: the approval, and the step it belongs to. */
export interface JournalDecisionRequest extends Omit<ApprovalRequest, "signal"> {
  /** The step name, unique in the run. */
  step: string;
  /** Set when asking about a call that may have run once already. */
  interrupted?: boolean;
  signal: AbortSignal;
}

/** The default: each step runs in this process, nothing is recorded, nothing is replayed. */
export const IN_PROCESS_JOURNAL: RunJournal = Object.freeze({
  step: <T>(_name: string, fn: () => Promise<T>): Promise<T> => fn(),
});
