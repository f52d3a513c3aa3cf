import { type ApprovalRequest, type Approver, readApprovalAnswer } from "../contracts/callbacks.js";
import type { PolicyDecision, PolicyEngine } from "../contracts/policy-engine.js";
import type { ToolCall } from "../contracts/tool-call.js";
import {
  type ToolDefinition,
  visibleToApps,
  visibleToModel,
} from "../contracts/tool-definition.js";
import { type ToolFailure, toolFailure } from "../contracts/tool-result.js";
import { errorMessage } from "../errors.js";
import type { ApprovalOutcome } from "./agent.js";
import type { CallOrigin } from "./call-origin.js";

/**
 * Asked before a person would be (the `beforeApproval` hooks): an answer stands in for the
 * person's, `undefined` lets the person decide. `person` says whether anyone would be asked.
 */
export type ApprovalHook = (
  request: Omit<ApprovalRequest, "signal">,
  person: boolean,
) => Promise<{ verdict: "allow" | "deny"; reason?: string; hook: string } | undefined>;

/** What the agent does with a call: run it, or answer it with `result` without running it. */
export type ToolCallRuling =
  | { kind: "run"; decision: PolicyDecision; approval?: ApprovalOutcome }
  | { kind: "refuse"; decision: PolicyDecision; approval?: ApprovalOutcome; result: ToolFailure };

/**
 * Policy, then approval. Both fail closed: an engine or approver that throws denies.
 * `refusal` is the registry's answer to arguments it refuses: a call that cannot run is
 * answered with it, and a person is never asked to approve such a call. The ruling comes
 * back at once when nothing has to be waited for (a policy that answers synchronously and no
 * approval): no promise per call on the common path.
 */
export function decideToolCall(
  tool: ToolDefinition,
  call: ToolCall,
  policy: PolicyEngine,
  approve: Approver | undefined,
  /** The signal an approver gets, made only if one is asked. */
  signal: () => AbortSignal,
  refusal: ToolFailure | undefined,
  /** A hook allowed it: an `ask` needs no approval (a deny stays a deny). */
  preApproved = false,
  /** Hooks that may answer an `ask` before a person is asked. */
  approvalHook?: ApprovalHook,
): ToolCallRuling | Promise<ToolCallRuling> {
  let decided: PolicyDecision | Promise<PolicyDecision>;
  try {
    decided = policy.decide(tool, call.arguments);
  } catch (error) {
    decided = engineFailed(error);
  }
  // Any thenable an engine returns, as `await` would take it.
  if (typeof (decided as { then?: unknown } | undefined)?.then === "function")
    return Promise.resolve(decided).then(
      (decision) => rule(decision, tool, call, approve, signal, refusal, preApproved, approvalHook),
      (error: unknown) =>
        rule(engineFailed(error), tool, call, approve, signal, refusal, preApproved, approvalHook),
    );
  return rule(
    decided as PolicyDecision,
    tool,
    call,
    approve,
    signal,
    refusal,
    preApproved,
    approvalHook,
  );
}

function rule(
  decision: PolicyDecision,
  tool: ToolDefinition,
  call: ToolCall,
  approve: Approver | undefined,
  signal: () => AbortSignal,
  refusal: ToolFailure | undefined,
  preApproved: boolean,
  approvalHook: ApprovalHook | undefined,
): ToolCallRuling | Promise<ToolCallRuling> {
  if (decision.verdict === "deny") return denied(decision, tool, call, decision.reason);
  if (refusal) return { kind: "refuse", decision, result: refusal };
  if (decision.verdict === "allow") return { kind: "run", decision };
  if (preApproved) return { kind: "run", decision, approval: "approved" };
  if (approvalHook)
    return approvalHook({ tool, call, decision }, approve !== undefined).then((answer) => {
      if (!answer) return toPerson(decision, tool, call, approve, signal);
      if (answer.verdict === "allow") return { kind: "run", decision, approval: "approved" };
      return denied(
        decision,
        tool,
        call,
        answer.reason ?? `Denied by hook ${answer.hook}.`,
        "rejected",
      );
    });
  return toPerson(decision, tool, call, approve, signal);
}

/** The person decides an `ask`; with no one to ask, it is denied. */
function toPerson(
  decision: PolicyDecision,
  tool: ToolDefinition,
  call: ToolCall,
  approve: Approver | undefined,
  signal: () => AbortSignal,
): ToolCallRuling | Promise<ToolCallRuling> {
  if (!approve) {
    return denied(
      decision,
      tool,
      call,
      `${decision.reason} It needs approval and no one can approve it here (no approval callback; in the CLI pass --yes or run in an interactive terminal).`,
      "no_approver",
    );
  }
  return askApprover(decision, tool, call, approve, signal);
}

async function askApprover(
  decision: PolicyDecision,
  tool: ToolDefinition,
  call: ToolCall,
  approve: Approver,
  signal: () => AbortSignal,
): Promise<ToolCallRuling> {
  let answer: unknown;
  try {
    answer = await approve({ tool, call, decision, signal: signal() });
  } catch (error) {
    return denied(
      decision,
      tool,
      call,
      `Approval failed, so the call is denied: ${errorMessage(error)}`,
      "rejected",
    );
  }
  const { verdict, why } = readApprovalAnswer(answer);
  if (verdict === "allow") return { kind: "run", decision, approval: "approved" };
  return denied(decision, tool, call, `The user rejected this call${why || "."}`, "rejected");
}

function denied(
  decision: PolicyDecision,
  tool: ToolDefinition,
  call: ToolCall,
  reason: string,
  approval?: ApprovalOutcome,
): ToolCallRuling {
  return {
    kind: "refuse",
    decision,
    ...(approval ? { approval } : {}),
    result: deniedResult(tool, call, reason),
  };
}

/** The decision for a call no source provides a tool for. */
export function unknownToolDecision(call: ToolCall): PolicyDecision {
  return {
    verdict: "deny",
    reason: `Unknown tool "${call.name}".`,
    matched: { kind: "unknown_tool" },
  };
}

/**
 * The decision for a call its caller may not make (see `ToolDefinition.audience`): the model
 * and a tool only a view may call, or a view and a tool that is not its own source's app tool.
 * Undefined when the caller may make it; a person's direct call always may.
 */
export function audienceDecision(
  tool: ToolDefinition,
  origin: CallOrigin,
): PolicyDecision | undefined {
  if (origin.kind === "turn" || origin.kind === "inner") {
    if (visibleToModel(tool)) return undefined;
    return {
      verdict: "deny",
      reason: `Tool "${tool.name}" is for its app's view only; it is not offered to the model.`,
      matched: { kind: "audience", caller: "model" },
    };
  }
  if (origin.kind !== "app") return undefined;
  if (tool.source === origin.source && visibleToApps(tool)) return undefined;
  return {
    verdict: "deny",
    reason:
      tool.source === origin.source
        ? `Tool "${tool.name}" is not visible to apps; a view may call only the tools its server marks for apps.`
        : `A view of ${origin.source} may call only its own server's tools, not "${tool.name}" (${tool.source}).`,
    matched: { kind: "audience", caller: "app" },
  };
}

/** The decision when a `beforeToolCall` hook denied the call, named after that hook. */
export function hookDenial(reason: string, hook: string): PolicyDecision {
  return { verdict: "deny", reason, matched: { kind: "hook", hook } };
}

/** The decision for a call the model asked for in a turn the run was aborted after. */
export function abortedDecision(): PolicyDecision {
  return { verdict: "deny", reason: "Run aborted.", matched: { kind: "aborted" } };
}

/** The answer to a denied call, whoever denied it: a refusal that names the tool and source. */
export function deniedResult(tool: ToolDefinition, call: ToolCall, reason: string): ToolFailure {
  return toolFailure("denied", reason, {
    metadata: { tool: call.name, source: tool.source, call_id: call.id },
  });
}

function engineFailed(error: unknown): PolicyDecision {
  return {
    verdict: "deny",
    reason: `The policy engine failed, so the call is denied: ${errorMessage(error)}`,
    matched: { kind: "engine_error" },
  };
}
