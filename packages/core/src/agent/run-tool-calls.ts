import type { ToolResultMessage } from "../conversation/message.js";
import type { HookNote, HookScope } from "../hooks/agent-hooks.js";
import type { HookList, ToolCallVerdict } from "../hooks/hook-list.js";
import { journaledCall } from "../journal/journaled-call.js";
import {
  IN_PROCESS_JOURNAL,
  type JournalDecisionRequest,
  type RunJournal,
} from "../journal/run-journal.js";
import type { PolicyDecision, PolicyEngine } from "../policy/policy-engine.js";
import type { ExecuteOptions, PreparedCall, ToolRegistry } from "../registry/tool-registry.js";
import type { ToolCall, ToolProgress } from "../tools/tool-call.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import { type ToolResult, toolFailure } from "../tools/tool-result.js";
import type { ToolTaskMode, ToolTaskUpdate } from "../tools/tool-task.js";
import type { AgentTracer, RunSpan, ToolCallSpan } from "../tracing/agent-tracer.js";
import type { Agent, ApprovalOutcome, ToolCallRecord } from "./agent.js";
import type { AgentEvents } from "./agent-events.js";
import type { Approver } from "./callbacks.js";
import { decideToolCall } from "./decide-tool-call.js";
import { planBatches } from "./execution-plan.js";

/**
 * What the calls of every turn share: made once per agent, not per call (a call's own closures
 * and objects were most of what the call path allocated, and garbage collection its largest
 * cost with 32 calls in flight).
 */
export interface ToolCallStepDeps {
  registry: ToolRegistry;
  policy: PolicyEngine;
  approve: Approver | undefined;
  /** What the model will read of a result (see `adaptResultContent`); identity for turn 0. */
  adaptForModel(result: ToolResult, turn: number): ToolResult;
  emit<E extends keyof AgentEvents>(event: E, payload: AgentEvents[E][0]): void;
  /** Whether anyone listens to `event`: a payload nobody reads is not built. */
  listening(event: keyof AgentEvents): boolean;
  hooks: HookList;
  scope(): Omit<HookScope, "signal">;
  /** The agent running the calls, handed to each tool. */
  agent: Agent;
  tracer: AgentTracer;
  /** What the policy would decide for other arguments (grep and glob ask it per file). */
  judge(tool: ToolDefinition, args: Record<string, unknown>): ReturnType<PolicyEngine["decide"]>;
  /** Keeps a call's task updates in the agent's session, when it has one. */
  recordTask?(call: ToolCall, update: ToolTaskUpdate): void;
}

/** What differs from one batch of calls to the next. */
export interface ToolCallStepOptions {
  turn: number;
  /** Absent for a `callTool` nobody can cancel. */
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  /** The run the calls belong to; undefined for `callTool`. */
  run: RunSpan | undefined;
  /** Where the run's steps are recorded; the in-process journal just runs them. */
  journal: RunJournal;
  /** A `callTool` caller's own progress listener (a gateway relaying it to its client). */
  onProgress?: ((progress: ToolProgress) => void) | undefined;
}

interface DecidedCall {
  call: ToolCall;
  span: ToolCallSpan;
  decision: PolicyDecision;
  approval?: ApprovalOutcome;
  hooks?: HookNote[];
  /** The answer: a refusal now, or the result once the call has run. */
  result?: ToolResult;
  /** Set when the call may run. */
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
  options: ToolCallStepOptions,
): Promise<{ records: ToolCallRecord[]; messages: ToolResultMessage[] }> {
  const { registry } = deps;
  const { turn, journal } = options;
  const step = new CallStep(deps, options);
  const scopeSignal = step.scopeSignal;
  // A durable run waits for a person's answer from outside the process.
  const asked: Approver | undefined = journal.awaitDecision
    ? (request) =>
        journal.awaitDecision!({ ...request, step: `turn-${turn}:${request.call.id}:approval` })
    : deps.approve;
  // The time an approver takes is measured around it, so a call's reported duration can leave
  // out the minutes a person spent reading the question. Calls are decided one at a time, so
  // one counter, reset per call, is enough.
  let waitedMs: number | undefined;
  const approve: Approver | undefined =
    asked && deps.listening("tool-decision")
      ? async (request) => {
          const began = performance.now();
          try {
            return await asked(request);
          } finally {
            waitedMs = (waitedMs ?? 0) + (performance.now() - began);
          }
        }
      : asked;
  const decided: DecidedCall[] = [];
  const runnable: Array<DecidedCall & { prepared: PreparedCall }> = [];
  for (const original of calls) {
    if (deps.listening("tool-call-start")) deps.emit("tool-call-start", { turn, call: original });
    const span = deps.tracer.startToolCall(options.run, original, turn);
    let call = original;
    let preparation = registry.prepare(call);
    if (preparation.kind === "unknown") {
      const decision: PolicyDecision = {
        verdict: "deny",
        reason: `Unknown tool "${call.name}".`,
        matched: { kind: "unknown_tool" },
      };
      span.decided(decision, undefined);
      decided.push({ call, span, decision, result: preparation.result });
      continue;
    }
    const tool = preparation.kind === "ready" ? preparation.prepared.tool : preparation.tool;
    span.tool(tool.definition);
    let verdict: ToolCallVerdict | undefined;
    if (deps.hooks.has("beforeToolCall")) {
      verdict = await deps.hooks.beforeToolCall({
        ...deps.scope(),
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
        deps.emit("tool-decision", { turn, call, decision });
        span.decided(decision, undefined);
        const result = toolFailure("denied", verdict.deny, {
          metadata: { tool: call.name, source: tool.definition.source, call_id: call.id },
        });
        decided.push({ call, span, decision, result, hooks: verdict.notes });
        continue;
      }
      if (verdict.arguments !== undefined) {
        // Rewritten arguments are checked like the model's: the schema, then the policy.
        call = { ...call, arguments: verdict.arguments };
        preparation = registry.prepare(call);
        if (preparation.kind === "unknown") throw new Error("a rewrite cannot change the tool");
      }
    }
    waitedMs = undefined;
    const pending = decideToolCall(
      tool.definition,
      call,
      deps.policy,
      approve,
      scopeSignal,
      preparation.kind === "invalid" ? preparation.result : undefined,
      verdict?.allow ?? false,
      deps.hooks.has("beforeApproval")
        ? (request, person) =>
            deps.hooks.beforeApproval({
              ...deps.scope(),
              signal: scopeSignal(),
              ...request,
              turn,
              person,
            })
        : undefined,
    );
    // Most calls are decided without waiting (the policy allows or denies at once).
    const ruling = pending instanceof Promise ? await pending : pending;
    if (deps.listening("tool-decision")) {
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
    if (verdict && verdict.notes.length > 0) item.hooks = verdict.notes;
    decided.push(item);
    if (item.prepared) runnable.push(item as DecidedCall & { prepared: PreparedCall });
  }
  // One call (a callTool, most model turns) runs without a batch plan.
  if (runnable.length === 1) await step.run(runnable[0]!);
  else {
    for (const batch of planBatches(
      runnable,
      (item) => item.prepared.tool.definition.safety === "read_only",
    ))
      await Promise.all(batch.map((item) => step.run(item)));
  }
  const records: ToolCallRecord[] = [];
  const messages: ToolResultMessage[] = [];
  for (const item of decided) {
    const { call, span } = item;
    const record = toolCallRecord(call, turn, item.decision, item.result);
    // What the model will see: kinds its provider cannot take become explicit placeholders.
    const result = deps.adaptForModel(record.result, turn);
    record.result = result;
    if (item.approval) record.approval = item.approval;
    if (item.hooks) record.hooks = item.hooks;
    records.push(record);
    if (deps.listening("tool-call-end")) deps.emit("tool-call-end", { turn, call, record, result });
    span.end(item.hooks ? { result, hooks: item.hooks } : { result });
    if (turn > 0) messages.push({ role: "tool", callId: call.id, toolName: call.name, result });
  }
  return { records, messages };
}

/** Runs a turn's allowed calls, one at a time: the registry, the journal, the after hooks. */
class CallStep {
  private idle: AbortSignal | undefined;

  constructor(
    private readonly deps: ToolCallStepDeps,
    private readonly options: ToolCallStepOptions,
  ) {}

  /**
   * Hooks and approvers are promised a signal; when no one can cancel, one that never aborts
   * is made for them on first need (a signal per call would cost more than the call path).
   */
  readonly scopeSignal = (): AbortSignal => {
    if (this.options.signal) return this.options.signal;
    this.idle ??= new AbortController().signal;
    return this.idle;
  };

  async run(item: DecidedCall & { prepared: PreparedCall }): Promise<void> {
    const { deps, options } = this;
    const { turn, journal } = options;
    const trace = item.span.trace;
    // Built by assignment: spreads of optional parts made an object each, on every call.
    const execute: ExecuteOptions = { agent: deps.agent, judge: deps.judge };
    if (options.signal) execute.signal = options.signal;
    if (options.timeoutMs !== undefined) execute.timeoutMs = options.timeoutMs;
    if (trace) execute.trace = trace;
    const relay = options.onProgress;
    if (relay || deps.listening("tool-progress"))
      execute.onProgress = (progress: ToolProgress) => {
        relay?.(progress);
        if (deps.listening("tool-progress"))
          deps.emit("tool-progress", { turn, call: item.call, progress });
      };
    // A durable run's session lives in its engine's state, which a step cannot write: its tasks
    // are in the run's event stream instead.
    const record = journal === IN_PROCESS_JOURNAL ? deps.recordTask : undefined;
    if (record || deps.listening("tool-task"))
      execute.onTask = (task: ToolTaskUpdate) => {
        record?.(item.call, task);
        deps.emit("tool-task", { turn, call: item.call, task });
      };
    // Timed only for a listener: the default call path stays free of the clock.
    const timed = deps.listening("tool-run-end");
    if (deps.listening("tool-run-start")) deps.emit("tool-run-start", { turn, call: item.call });
    const began = timed ? performance.now() : 0;
    // In process and untraced (the default) a call is just run: no step name, no closure.
    if (journal === IN_PROCESS_JOURNAL && !trace)
      item.result = await deps.registry.run(item.prepared, execute);
    else {
      const runIt = (task?: ToolTaskMode) =>
        deps.registry.run(item.prepared, task ? { ...execute, task } : execute);
      item.result = await item.span.executing(
        journal === IN_PROCESS_JOURNAL
          ? runIt
          : () =>
              journaledCall(
                journal,
                `turn-${turn}:${item.call.id}`,
                item.call,
                item.prepared.tool.definition,
                runIt,
                (request) => this.askAgain(request),
                this.scopeSignal,
              ),
      );
    }
    if (deps.hooks.has("afterToolCall")) {
      const after = await deps.hooks.afterToolCall({
        ...deps.scope(),
        signal: this.scopeSignal(),
        call: item.call,
        tool: item.prepared.tool.definition,
        turn,
        result: item.result,
      });
      item.result = after.result;
      if (after.notes.length > 0) item.hooks = [...(item.hooks ?? []), ...after.notes];
    }
    if (timed)
      deps.emit("tool-run-end", {
        turn,
        call: item.call,
        result: item.result,
        durationMs: performance.now() - began,
      });
  }

  /** A replayed side-effect call that may have run once already is asked about like an `ask`. */
  private async askAgain(request: JournalDecisionRequest): Promise<unknown> {
    const { journal } = this.options;
    if (journal.awaitDecision) return journal.awaitDecision(request);
    if (!this.deps.approve) return "deny";
    try {
      return await this.deps.approve(request);
    } catch {
      return "deny";
    }
  }
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
