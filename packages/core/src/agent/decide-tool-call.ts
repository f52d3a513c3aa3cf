import { errorMessage } from "../errors.js";
import type { PolicyDecision, PolicyEngine } from "../policy/policy-engine.js";
import type { ToolCall } from "../tools/tool-call.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import type { ToolResult } from "../tools/tool-result.js";
import type { ToolCallRecord } from "./agent.js";
import type { ApprovalAnswer, Approver } from "./callbacks.js";

export interface ToolCallVerdict {
  decision: PolicyDecision;
  /** Set when the call was refused before approval because it could never run. */
  refused?: ToolResult;
  approval?: ToolCallRecord["approval"];
  /** Whether the call may run. */
  allowed: boolean;
  /** Why it may not, for the `denied` result the model reads. */
  denial?: string;
}

/**
 * Policy, then approval. Both fail closed: an engine or approver that throws denies.
 */
export async function decideToolCall(
  tool: ToolDefinition,
  call: ToolCall,
  policy: PolicyEngine,
  approve: Approver | undefined,
  signal: AbortSignal,
  /** Checks run before a person is asked; a result here refuses the call without asking. */
  beforeApproval?: () => ToolResult | undefined,
): Promise<ToolCallVerdict> {
  let decision: PolicyDecision;
  try {
    decision = await policy.decide(tool, call.arguments);
  } catch (error) {
    decision = {
      decision: "deny",
      reason: `The policy engine failed, so the call is denied: ${errorMessage(error)}`,
      matched: { kind: "engine_error" },
    };
  }
  if (decision.decision === "allow") return { decision, allowed: true };
  if (decision.decision === "deny") return { decision, allowed: false, denial: decision.reason };
  const refused = beforeApproval?.();
  if (refused) return { decision, allowed: false, refused };
  if (!approve) {
    return {
      decision,
      approval: "no_approver",
      allowed: false,
      denial: `${decision.reason} It needs approval and no one can approve it here (no approval callback; in the CLI pass --yes or run in an interactive terminal).`,
    };
  }
  let answer: ApprovalAnswer;
  try {
    answer = await approve({ tool, call, decision, signal });
  } catch (error) {
    return {
      decision,
      approval: "rejected",
      allowed: false,
      denial: `Approval failed, so the call is denied: ${errorMessage(error)}`,
    };
  }
  const verdict = typeof answer === "string" ? answer : answer.decision;
  if (verdict === "allow") return { decision, approval: "approved", allowed: true };
  const why = typeof answer === "object" && answer.reason ? `: ${answer.reason}` : ".";
  return {
    decision,
    approval: "rejected",
    allowed: false,
    denial: `The user rejected this call${why}`,
  };
}
