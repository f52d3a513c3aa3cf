import type { HookNote } from "../contracts/agent-hooks.js";
import type { Approver } from "../contracts/callbacks.js";
import type { PolicyDecision } from "../contracts/policy-engine.js";
import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolResult } from "../contracts/tool-result.js";
import type { BeforeToolCallOutcome } from "../hooks/hook-list.js";
import { checkArguments } from "../registry/argument-check.js";
import type { PreparedCall } from "../registry/tool-registry.js";
import type { ToolCallSpan } from "../tracing/agent-tracer.js";
import type { ApprovalOutcome } from "./agent.js";
import { approvalHookContext, callHookContext } from "./call-hook-context.js";
import { type CallOrigin, turnNumber } from "./call-origin.js";
import {
  audienceDecision,
  decideToolCall,
  deniedResult,
  hookDenial,
  unknownToolDecision,
} from "./decide-tool-call.js";
import type { ToolCallStepDeps, ToolCallStepOptions } from "./tool-call-step.js";

/** A call once decided: refused with its answer, or prepared to run. */
export interface DecidedCall {
  call: ToolCall;
  span: ToolCallSpan;
  decision: PolicyDecision;
  approval?: ApprovalOutcome;
  hooks?: HookNote[];
  /** The answer: a refusal now, or the result once the call has run. */
  result?: ToolResult;
  /** Set when the call may run. */
  prepared?: PreparedCall;
  /** The call runs a sub-agent, whose spending counts toward the run. */
  subAgent?: true;
}

/** A decided call that may run. */
export type RunnableCall = DecidedCall & { prepared: PreparedCall };

/**
 * The decide stage: each call is routed and checked, shown to the `beforeToolCall` hooks, then
 * judged by the policy (and a person, for an `ask`), one at a time and in order. Every decision
 * a call can get is made here, from the functions of decide-tool-call.ts.
 */
export async function decideCalls(
  deps: ToolCallStepDeps,
  calls: readonly ToolCall[],
  options: ToolCallStepOptions,
  scopeSignal: () => AbortSignal,
): Promise<DecidedCall[]> {
  const { registry } = deps;
  const { origin } = options;
  const turn = turnNumber(origin);
  const approver = new TimedApprover(deps, options);
  const decided: DecidedCall[] = [];
  for (const original of calls) {
    if (deps.listening("tool-call-start")) deps.emit("tool-call-start", { turn, call: original });
    const span = deps.tracer.startToolCall(runOf(origin), original, turn);
    let call = original;
    let preparation = registry.prepare(call);
    if (preparation.kind === "unknown") {
      const decision = unknownToolDecision(call);
      span.decided(decision, undefined);
      decided.push({ call, span, decision, result: preparation.result });
      continue;
    }
    const tool = preparation.kind === "ready" ? preparation.prepared.tool : preparation.tool;
    span.tool(tool.definition);
    // Before the hooks and the policy: a call its caller may not make is not theirs to judge.
    const refused = audienceDecision(tool.definition, origin);
    if (refused) {
      deps.emit("tool-decision", { turn, call, decision: refused });
      span.decided(refused, undefined);
      const result = deniedResult(tool.definition, call, refused.reason);
      decided.push({ call, span, decision: refused, result });
      continue;
    }
    let hooked: BeforeToolCallOutcome | undefined;
    if (deps.hooks.has("beforeToolCall")) {
      hooked = await deps.hooks.beforeToolCall(
        callHookContext(deps.scope(), scopeSignal, call, tool.definition, turn),
      );
      if (hooked.deny !== undefined) {
        const decision = hookDenial(hooked.deny, hooked.notes.at(-1)?.hook ?? "hook");
        deps.emit("tool-decision", { turn, call, decision });
        span.decided(decision, undefined);
        const result = deniedResult(tool.definition, call, hooked.deny);
        decided.push({ call, span, decision, result, hooks: hooked.notes });
        continue;
      }
      if (hooked.arguments !== undefined) {
        // Rewritten arguments are checked like the model's: the schema, then the policy.
        call = { ...call, arguments: hooked.arguments };
        preparation = checkArguments(call, tool);
      }
    }
    approver.waitedMs = undefined;
    const pending = decideToolCall(
      tool.definition,
      call,
      deps.policy,
      approver.approve,
      scopeSignal,
      preparation.kind === "invalid" ? preparation.result : undefined,
      hooked?.allow ?? false,
      deps.hooks.has("beforeApproval")
        ? (request, person) =>
            deps.hooks.beforeApproval(
              approvalHookContext(
                callHookContext(deps.scope(), scopeSignal, request.call, request.tool, turn),
                request.decision,
                person,
              ),
            )
        : undefined,
    );
    // Most calls are decided without waiting (the policy allows or denies at once).
    const ruling = pending instanceof Promise ? await pending : pending;
    if (deps.listening("tool-decision")) {
      const { waitedMs } = approver;
      deps.emit("tool-decision", {
        turn,
        call,
        decision: ruling.decision,
        approval: ruling.approval,
        ...(waitedMs !== undefined ? { waitedMs } : {}),
      });
    }
    span.decided(ruling.decision, ruling.approval);
    const item: DecidedCall = { call, span, decision: ruling.decision };
    if (ruling.kind === "refuse") item.result = ruling.result;
    else if (preparation.kind === "ready") item.prepared = preparation.prepared;
    if (ruling.approval) item.approval = ruling.approval;
    if (hooked && hooked.notes.length > 0) item.hooks = hooked.notes;
    if (tool.definition.subAgent) item.subAgent = true;
    decided.push(item);
  }
  return decided;
}

function runOf(origin: CallOrigin) {
  return origin.kind === "turn" ? origin.run : undefined;
}

/**
 * The approver a turn's calls are asked with. A durable run waits for a person's answer from
 * outside the process. The time an approver takes is measured around it, so a call's reported
 * duration can leave out the minutes a person spent reading the question; calls are decided
 * one at a time, so one counter, reset per call, is enough.
 */
class TimedApprover {
  waitedMs: number | undefined;
  readonly approve: Approver | undefined;

  constructor(deps: ToolCallStepDeps, options: ToolCallStepOptions) {
    const { journal } = options;
    const turn = turnNumber(options.origin);
    const asked: Approver | undefined = journal.awaitDecision
      ? (request) =>
          journal.awaitDecision!({ ...request, step: `turn-${turn}:${request.call.id}:approval` })
      : (options.approver ?? deps.approve);
    const { onApprovalWait } = options;
    this.approve =
      asked && (onApprovalWait || deps.listening("tool-decision"))
        ? async (request) => {
            const began = performance.now();
            try {
              return await asked(request);
            } finally {
              const waited = performance.now() - began;
              this.waitedMs = (this.waitedMs ?? 0) + waited;
              onApprovalWait?.(waited);
            }
          }
        : asked;
  }
}
