import type {
  ApprovalAnswer,
  InterruptedSideEffect,
  JournalDecisionRequest,
  RunJournal,
} from "@pseudoclaude/core";
import { type ObjectContext, TerminalError } from "@restatedev/restate-sdk";
import { PENDING_KEY, type PendingApproval } from "./pending-approval.js";
import type { RunEventLog } from "./run-events.js";

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
    /** Where the run's events are streamed; written at each step boundary. */
    private readonly events?: RunEventLog,
  ) {}

  async step<T>(name: string, fn: () => Promise<T>): Promise<T> {
    await this.events?.flush();
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
      callId: request.call.id,
      ...(request.call.parentId !== undefined ? { parentCallId: request.call.parentId } : {}),
    };
    const waiting = (await this.ctx.get<PendingApproval[]>(PENDING_KEY)) ?? [];
    this.ctx.set(PENDING_KEY, [...waiting, pending]);
    if (this.events) {
      this.events.push({ type: "approval-waiting", data: pending });
      await this.events.flush();
    }
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
