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
  /** The call asked about. */
  callId?: string;
  /** The call that made it, for a code-mode program's call. */
  parentCallId?: string;
}
