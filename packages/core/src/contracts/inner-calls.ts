import type { PolicyDecision } from "./policy-engine.js";
import type { ApprovalOutcome } from "./run-records.js";
import type { ToolDefinition } from "./tool-definition.js";
import type { ToolResult } from "./tool-result.js";

/** What one inner call came to: the policy's decision, a person's answer if asked, the result. */
export interface InnerCallOutcome {
  decision: PolicyDecision;
  approval?: ApprovalOutcome;
  result: ToolResult;
}

/**
 * The calls a tool makes on the agent's behalf, as a code-mode program does: each is the same
 * as a call the model makes (hooks, the policy and a person's approval, the registry, tracing
 * under the calling tool's span, events, the session, the run's journal), so a program can do
 * nothing its calls could not do one by one. Given to a tool whose definition says
 * `innerCalls: true`; such a tool is not journaled as one step — its inner calls are, and a
 * replay runs it again and hands each call its recorded answer — so it must take the same path
 * given the same answers and what {@link InnerCalls.once} recorded.
 */
export interface InnerCalls {
  /**
   * Run one call. `index` numbers the tool's calls in the order it made them (0, 1, …): the
   * call's id and journal step derive from it, so a replay finds each call's record. Never
   * throws: a denial, a failure or a cancellation is the outcome's failed result.
   */
  call(
    index: number,
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<InnerCallOutcome>;
  /** Run `fn` once per run: a replay gets what it returned the first time (a start time, a seed). */
  once<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /**
   * The tools a call may name: those the model may reach now (sent, found, or waiting to be
   * found through tool search; as the policy leaves them), without tools that make inner calls.
   */
  tools(): readonly ToolDefinition[];
  /** How long the calls so far waited for a person's answer, in milliseconds. */
  approvalWaitMs(): number;
}
