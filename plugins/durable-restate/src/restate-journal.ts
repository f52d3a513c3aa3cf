import type {
  ApprovalAnswer,
  InterruptedSideEffect,
  JournalDecisionRequest,
  RunJournal,
} from "@pseudoclaude/core";
import { type ObjectContext, TerminalError } from "@restatedev/restate-sdk";

/** Object state key: the approvals a run waits for, by awakeable id. */
export const PENDING_KEY = "pending_approvals";

/** One approval a durable run waits for; `pseudoclaude approve ID allow|deny` answers it. */
export interface PendingApproval {
  id: string;
  /** The journal step it belongs to. */
  step: string;
  tool: string;
  arguments: unknown;
  reason: string;
  /** The call may have run once already (its worker stopped mid-call). */
  interrupted: boolean;
}

/** A step that keeps failing is retried this often, then fails the run (not retried forever). */
const STEP_RETRIES = 3;

/**
 * The kernel's journal on a Restate virtual object's context: each step is a `ctx.run`
 * (recorded once by the server, replayed from its record), and an approval is an awakeable,
 * so a run waiting for a person holds no worker.
 */
export class RestateJournal implements RunJournal {
  constructor(
    private readonly ctx: ObjectContext,
    readonly onInterruptedSideEffect: InterruptedSideEffect = "ask",
  ) {}

  step<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.ctx.run(name, fn, { maxRetryAttempts: STEP_RETRIES });
  }

  /**
   * A `ctx.run` result can come back before the server stored it. A timer goes through the
   * server, which keeps a journal in order: once it fires, every earlier entry is stored.
   */
  async checkpoint(): Promise<void> {
    await this.ctx.sleep({ milliseconds: 1 });
  }

  async awaitDecision(request: JournalDecisionRequest): Promise<ApprovalAnswer> {
    const { id, promise } = this.ctx.awakeable<ApprovalAnswer>();
    const pending: PendingApproval = {
      id,
      step: request.step,
      tool: request.call.name,
      arguments: request.call.arguments,
      reason: request.decision.reason,
      interrupted: request.interrupted === true,
    };
    const waiting = (await this.ctx.get<PendingApproval[]>(PENDING_KEY)) ?? [];
    this.ctx.set(PENDING_KEY, [...waiting, pending]);
    const answer = await promise;
    const left = ((await this.ctx.get<PendingApproval[]>(PENDING_KEY)) ?? []).filter(
      (item) => item.id !== id,
    );
    this.ctx.set(PENDING_KEY, left);
    if (!isAnswer(answer))
      throw new TerminalError(
        `Approval ${id} was answered with ${JSON.stringify(answer)}; answer "allow" or "deny".`,
      );
    return answer;
  }
}

function isAnswer(value: unknown): value is ApprovalAnswer {
  if (value === "allow" || value === "deny") return true;
  const verdict = (value as { verdict?: unknown } | null)?.verdict;
  return verdict === "allow" || verdict === "deny";
}
