import { errorMessage } from "../errors.js";
import type { PolicyDecision, PolicyEngine } from "../policy/policy-engine.js";
import type { ToolCall } from "../tools/tool-call.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import { type ToolFailure, toolFailure } from "../tools/tool-result.js";
import type { ApprovalOutcome } from "./agent.js";
import type { ApprovalAnswer, Approver } from "./callbacks.js";

/** What the agent does with a call: run it, or answer it with `result` without running it. */
export type ToolCallRuling =
  | { kind: "run"; decision: PolicyDecision; approval?: ApprovalOutcome }
  | { kind: "refuse"; decision: PolicyDecision; approval?: ApprovalOutcome; result: ToolFailure };

/**
 * Policy, then approval. Both fail closed: an engine or approver that throws denies.
 * `refusal` is the registry's answer to arguments it refuses: a call that cannot run is
 * answered with it, and a person is never asked to approve such a call.
 */
export async function decideToolCall(
  tool: ToolDefinition,
  call: ToolCall,
  policy: PolicyEngine,
  approve: Approver | undefined,
  /** The signal an approver gets, made only if one is asked. */
  signal: () => AbortSignal,
  refusal: ToolFailure | undefined,
  /** A hook allowed it: an `ask` needs no approval (a deny stays a deny). */
  preApproved = false,
): Promise<ToolCallRuling> {
  const decision = await policyDecision(policy, tool, call);
  const denied = (reason: string, approval?: ApprovalOutcome): ToolCallRuling => ({
    kind: "refuse",
    decision,
    ...(approval ? { approval } : {}),
    result: toolFailure("denied", reason, {
      metadata: { tool: call.name, source: tool.source, call_id: call.id },
    }),
  });
  if (decision.verdict === "deny") return denied(decision.reason);
  if (refusal) return { kind: "refuse", decision, result: refusal };
  if (decision.verdict === "allow") return { kind: "run", decision };
  if (preApproved) return { kind: "run", decision, approval: "approved" };
  if (!approve) {
    return denied(
      `${decision.reason} It needs approval and no one can approve it here (no approval callback; in the CLI pass --yes or run in an interactive terminal).`,
      "no_approver",
    );
  }
  let answer: ApprovalAnswer;
  try {
    answer = await approve({ tool, call, decision, signal: signal() });
  } catch (error) {
    return denied(`Approval failed, so the call is denied: ${errorMessage(error)}`, "rejected");
  }
  const verdict = typeof answer === "string" ? answer : answer.verdict;
  if (verdict === "allow") return { kind: "run", decision, approval: "approved" };
  const why = typeof answer === "object" && answer.reason ? `: ${answer.reason}` : ".";
  return denied(`The user rejected this call${why}`, "rejected");
}

async function policyDecision(
  policy: PolicyEngine,
  tool: ToolDefinition,
  call: ToolCall,
): Promise<PolicyDecision> {
  try {
    return await policy.decide(tool, call.arguments);
  } catch (error) {
    return {
      verdict: "deny",
      reason: `The policy engine failed, so the call is denied: ${errorMessage(error)}`,
      matched: { kind: "engine_error" },
    };
  }
}
