import type { ToolResultMessage } from "../conversation/message.js";
import type { HookScope } from "../hooks/agent-hooks.js";
import type { HookList, ToolCallVerdict } from "../hooks/hook-list.js";
import { journaledCall } from "../journal/journaled-call.js";
import {
  IN_PROCESS_JOURNAL,
  type JournalDecisionRequest,
  type RunJournal,
} from "../journal/run-journal.js";
import type { PolicyDecision, PolicyEngine } from "../policy/policy-engine.js";
import type { PreparedCall, ToolRegistry } from "../registry/tool-registry.js";
import type { ToolCall, ToolProgress } from "../tools/tool-call.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import { type ToolResult, toolFailure } from "../tools/tool-result.js";
import type { AgentTracer, RunSpan, ToolCallSpan } from "../tracing/agent-tracer.js";
import type { Agent, ToolCallRecord } from "./agent.js";
import type { AgentEvents } from "./agent-events.js";
import type { Approver } from "./callbacks.js";
import { decideToolCall } from "./decide-tool-call.js";
import { planBatches } from "./execution-plan.js";

export interface ToolCallStepDeps {
  registry: ToolRegistry;
  policy: PolicyEngine;
  approve: Approver | undefined;
  /** What the model will read of a result (see `adaptResultContent`); identity for no model. */
  adaptForModel(result: ToolResult): ToolResult;
  emit<E extends keyof AgentEvents>(event: E, payload: AgentEvents[E][0]): void;
  /** Whether anyone listens to `tool-progress` (progress is only requested then). */
  progressWanted(): boolean;
  hooks: HookList;
  scope: Omit<HookScope, "signal">;
  /** The agent running the calls, handed to each tool. */
  agent: Agent;
  tracer: AgentTracer;
  /** The run the calls belong to; undefined for `callTool`. */
  run: RunSpan | undefined;
  /** Where the run's steps are recorded; the in-process journal just runs them. */
  journal: RunJournal;
}

interface DecidedCall {
  call: ToolCall;
  record: ToolCallRecord;
  span: ToolCallSpan;
  /** Set when the call may run; its result replaces the record's placeholder. */
  prepared?: PreparedCall;
}

/**
 * One model turn's tool calls: each is routed and checked by the registry, then decided in
 * order (approvals are asked one at a time); the allowed ones run in batches - consecutive
 * read-only calls together, side-effect calls alone - and every result, including denials,
 * comes back in call order.
 */
export async function runToolCalls(
  deps: ToolCallStepDeps,
  calls: readonly ToolCall[],
  /** `signal` is absent for a `callTool` nobody can cancel. */
  options: { turn: number; signal: AbortSignal | undefined; timeoutMs: number | undefined },
): Promise<{ records: ToolCallRecord[]; messages: ToolResultMessage[] }> {
  const { registry, emit } = deps;
  const { turn, signal, timeoutMs } = options;
  // Hooks and approvers are promised a signal; when no one can cancel, one that never aborts
  // is made for them on first need (a signal per call would cost more than the call path).
  let idle: AbortSignal | undefined;
  const scopeSignal = (): AbortSignal => {
    if (signal) return signal;
    idle ??= new AbortController().signal;
    return idle;
  };
  // What the policy would decide for other arguments (grep and glob ask it per file).
  const judge = (tool: ToolDefinition, args: Record<string, unknown>) =>
    deps.policy.decide(tool, args);
  // A replayed side-effect call that may have run once already is asked about like an `ask`.
  const askAgain = async (request: JournalDecisionRequest) => {
    if (deps.journal.awaitDecision) return deps.journal.awaitDecision(request);
    if (!deps.approve) return "deny" as const;
    try {
      return await deps.approve(request);
    } catch {
      return "deny" as const;
    }
  };
  const decided: DecidedCall[] = [];
  for (const original of calls) {
    emit("tool-call-start", { turn, call: original });
    const span = deps.tracer.startToolCall(deps.run, original, turn);
    let call = original;
    let preparation = registry.prepare(call);
    if (preparation.kind === "unknown") {
      const decision: PolicyDecision = {
        verdict: "deny",
        reason: `Unknown tool "${call.name}".`,
        matched: { kind: "unknown_tool" },
      };
      span.decided(decision, undefined);
      decided.push({
        call,
        span,
        record: toolCallRecord(call, turn, decision, preparation.result),
      });
      continue;
    }
    const tool = preparation.kind === "ready" ? preparation.prepared.tool : preparation.tool;
    span.tool(tool.definition);
    let verdict: ToolCallVerdict | undefined;
    if (deps.hooks.has("beforeToolCall")) {
      verdict = await deps.hooks.beforeToolCall({
        ...deps.scope,
        signal: scopeSignal(),
        call,
        tool: tool.definition,
        turn,
      });
      if (verdict.deny !== undefined) {
        const hook = verdict.notes.at(-1)?.hook ?? "hook";
        const decision: PolicyDecision = {
          verdict: "deny",
          reason: verdict.deny,
          matched: { kind: "hook", hook },
        };
        emit("tool-decision", { turn, call, decision });
        span.decided(decision, undefined);
        const result = toolFailure("denied", verdict.deny, {
          metadata: { tool: call.name, source: tool.definition.source, call_id: call.id },
        });
        const record = toolCallRecord(call, turn, decision, result);
        record.hooks = verdict.notes;
        decided.push({ call, span, record });
        continue;
      }
      if (verdict.arguments !== undefined) {
        // Rewritten arguments are checked like the model's: the schema, then the policy.
        call = { ...call, arguments: verdict.arguments };
        preparation = registry.prepare(call);
        if (preparation.kind === "unknown") throw new Error("a rewrite cannot change the tool");
      }
    }
    const ruling = await decideToolCall(
      tool.definition,
      call,
      deps.policy,
      deps.approve,
      scopeSignal,
      preparation.kind === "invalid" ? preparation.result : undefined,
      verdict?.allow ?? false,
    );
    emit("tool-decision", { turn, call, decision: ruling.decision, approval: ruling.approval });
    span.decided(ruling.decision, ruling.approval);
    const record = toolCallRecord(
      call,
      turn,
      ruling.decision,
      ruling.kind === "refuse" ? ruling.result : undefined,
    );
    if (ruling.approval) record.approval = ruling.approval;
    if (verdict && verdict.notes.length > 0) record.hooks = verdict.notes;
    decided.push({
      call,
      span,
      record,
      ...(ruling.kind === "run" && preparation.kind === "ready"
        ? { prepared: preparation.prepared }
        : {}),
    });
  }
  const runnable = decided.filter(
    (item): item is DecidedCall & { prepared: PreparedCall } => item.prepared !== undefined,
  );
  for (const batch of planBatches(
    runnable,
    (item) => item.prepared.tool.definition.safety === "read_only",
  )) {
    await Promise.all(
      batch.map(async (item) => {
        const trace = item.span.trace;
        const execute = () =>
          registry.run(item.prepared, {
            ...(signal ? { signal } : {}),
            agent: deps.agent,
            judge,
            ...(timeoutMs !== undefined ? { timeoutMs } : {}),
            ...(trace ? { trace } : {}),
            ...(deps.progressWanted()
              ? {
                  onProgress: (progress: ToolProgress) =>
                    emit("tool-progress", { turn, call: item.call, progress }),
                }
              : {}),
          });
        // In process (the default) a call is just run: no step name is even built.
        item.record.result = await item.span.executing(
          deps.journal === IN_PROCESS_JOURNAL
            ? execute
            : () =>
                journaledCall(
                  deps.journal,
                  `turn-${turn}:${item.call.id}`,
                  item.call,
                  item.prepared.tool.definition,
                  execute,
                  askAgain,
                  scopeSignal,
                ),
        );
        if (deps.hooks.has("afterToolCall")) {
          const after = await deps.hooks.afterToolCall({
            ...deps.scope,
            signal: scopeSignal(),
            call: item.call,
            tool: item.prepared.tool.definition,
            turn,
            result: item.record.result,
          });
          item.record.result = after.result;
          if (after.notes.length > 0)
            item.record.hooks = [...(item.record.hooks ?? []), ...after.notes];
        }
      }),
    );
  }
  const records: ToolCallRecord[] = [];
  const messages: ToolResultMessage[] = [];
  for (const { call, record, span } of decided) {
    // What the model will see: kinds its provider cannot take become explicit placeholders.
    record.result = deps.adaptForModel(record.result);
    records.push(record);
    emit("tool-call-end", { turn, call, record, result: record.result });
    span.end({ result: record.result, ...(record.hooks ? { hooks: record.hooks } : {}) });
    messages.push({ role: "tool", callId: call.id, toolName: call.name, result: record.result });
  }
  return { records, messages };
}

/** A record for a call; a missing result is a framework bug, said as such. */
export function toolCallRecord(
  call: ToolCall,
  turn: number,
  decision: PolicyDecision,
  result: ToolResult | undefined,
): ToolCallRecord {
  return {
    id: call.id,
    name: call.name,
    arguments: call.arguments,
    turn,
    decision,
    result: result ?? toolFailure("internal_error", "The call did not produce a result."),
  };
}
