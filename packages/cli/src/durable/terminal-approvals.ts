import type { DurableClient, PendingApproval } from "@pseudoclaude/durable-restate/client";
import { isYes } from "../approval.js";
import type { Prompter } from "../prompter.js";
import { compactArgs } from "../text-format.js";

/** The call an approval is about, from its step name (`turn-N:ID:approval|interrupted`). */
function callIdOf(step: string): string {
  return /^turn-\d+:(.+):(?:approval|interrupted)$/.exec(step)?.[1] ?? step;
}

/**
 * A durable run followed in a terminal asks its approvals right there, as a run in process
 * does, and sends the answer through Restate's ingress. Anyone else may answer first
 * (`pseudoclaude approve`): when the decision arrives, the question is withdrawn.
 */
export class TerminalApprovals {
  /** Open questions, by the call they are about. */
  private readonly open = new Map<string, AbortController>();

  constructor(
    private readonly client: DurableClient,
    private readonly prompter: Prompter,
    private readonly note: (line: string) => void,
  ) {}

  ask(approval: PendingApproval): void {
    const call = callIdOf(approval.step);
    const withdraw = new AbortController();
    this.open.set(call, withdraw);
    this.prompter
      .ask(`Allow ${approval.tool} ${compactArgs(approval.arguments)}? [y/N] `, withdraw.signal)
      .then((answer) =>
        isYes(answer)
          ? this.client.answer(approval.id, "allow")
          : this.client.answer(approval.id, "deny", "declined at the prompt"),
      )
      .catch((error: unknown) => {
        if (!withdraw.signal.aborted)
          this.note(`  could not answer ${approval.id}: ${(error as Error).message}`);
      })
      .finally(() => {
        if (this.open.get(call) === withdraw) this.open.delete(call);
      });
  }

  /** The run decided on `callId` (answered here or elsewhere): its question is over. */
  decided(callId: string): void {
    this.open.get(callId)?.abort(new Error("answered"));
  }

  close(): void {
    for (const question of this.open.values()) question.abort(new Error("the run ended"));
    this.prompter.close();
  }
}
