import type { AgentEvents } from "../contracts/agent-events.js";
import type { HookScope } from "../contracts/agent-hooks.js";
import type { AgentCallbacks, Approver } from "../contracts/callbacks.js";
import type { PolicyEngine } from "../contracts/policy-engine.js";
import type { ToolCall, ToolProgress } from "../contracts/tool-call.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import type { ToolTaskUpdate } from "../contracts/tool-task.js";
import type { HookList } from "../hooks/hook-list.js";
import type { RunJournal } from "../journal/run-journal.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { ToolSearchCapability } from "../tool-search/search-tool.js";
import type { AgentTracer } from "../tracing/agent-tracer.js";
import type { Agent, ForkCapability, ForkOptions, ToolCallRecord } from "./agent.js";
import type { CallOrigin } from "./call-origin.js";
import type { ProviderRef } from "./provider-ref.js";
import type { SessionRecorder } from "./session-recorder.js";

/**
 * What the calls of every turn share: made once per agent, not per call (a call's own closures
 * and objects were most of what the call path allocated, and garbage collection its largest
 * cost with 32 calls in flight).
 */
export interface ToolCallStepDeps {
  registry: ToolRegistry;
  policy: PolicyEngine;
  approve: Approver | undefined;
  /** The model a turn's results are adapted for (see `adaptResultContent`). */
  providerRef: ProviderRef;
  emit<E extends keyof AgentEvents>(event: E, payload: AgentEvents[E][0]): void;
  /** Whether anyone listens to `event`: a payload nobody reads is not built. */
  listening(event: keyof AgentEvents): boolean;
  hooks: HookList;
  scope(): Omit<HookScope, "signal">;
  /** What a tool may do with the agent running it: start a child. */
  fork: ForkCapability;
  /** The agent itself, for tools written before `fork` (see `ToolExecutionContext.agent`). */
  agent: Agent;
  tracer: AgentTracer;
  /** The conversation's tool search, for the search tool. */
  toolSearch: ToolSearchCapability;
  /** What the policy would decide for other arguments (grep and glob ask it per file). */
  judge(tool: ToolDefinition, args: Record<string, unknown>): ReturnType<PolicyEngine["decide"]>;
  /** Keeps a call's task updates in the agent's session, when it has one. */
  recordTask?(call: ToolCall, update: ToolTaskUpdate): void;
  /** Keeps an inner call (a program's) in the agent's session, when it has one. */
  recordInner?(record: ToolCallRecord): void;
  /** The tools the model may reach now, sent or to be found (see `InnerCalls.tools`). */
  offered(): readonly ToolDefinition[];
}

/** What differs from one batch of calls to the next. */
export interface ToolCallStepOptions {
  /** A model turn of a run, or a direct `callTool`. */
  origin: CallOrigin;
  /** Absent for a `callTool` nobody can cancel. */
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  /** Where the run's steps are recorded; the in-process journal just runs them. */
  journal: RunJournal;
  /** A `callTool` caller's own progress listener (a gateway relaying it to its client). */
  onProgress?: ((progress: ToolProgress) => void) | undefined;
  /** A `callTool` caller's own approver, asked instead of the agent's. */
  approver?: Approver | undefined;
  /** Told how long each approval waited for a person (a program's wall clock leaves it out). */
  onApprovalWait?: ((ms: number) => void) | undefined;
}

/** What an agent hands over to make its {@link ToolCallStepDeps}. */
export interface ToolCallDepsParts
  extends Pick<
    ToolCallStepDeps,
    | "registry"
    | "policy"
    | "providerRef"
    | "hooks"
    | "tracer"
    | "agent"
    | "listening"
    | "scope"
    | "emit"
    | "toolSearch"
    | "offered"
  > {
  callbacks: AgentCallbacks;
  recorder: SessionRecorder | undefined;
  /** The agent's own `fork`. */
  fork(options: ForkOptions): Agent;
}

/** What every turn's calls share, made once per agent (see ToolCallStepDeps). */
export function toolCallDeps(parts: ToolCallDepsParts): ToolCallStepDeps {
  const { policy, callbacks, providerRef, recorder } = parts;
  const fork: ForkCapability = {
    depth: parts.agent.depth,
    get provider() {
      return providerRef.provider;
    },
    start: parts.fork,
  };
  return {
    registry: parts.registry,
    policy,
    // Read at each call: an approver may be set after the agent is made.
    get approve() {
      return callbacks.approve;
    },
    providerRef,
    listening: parts.listening,
    hooks: parts.hooks,
    scope: parts.scope,
    fork,
    agent: parts.agent,
    tracer: parts.tracer,
    toolSearch: parts.toolSearch,
    judge: (tool, args) => policy.decide(tool, args),
    offered: parts.offered,
    ...(recorder
      ? {
          recordTask: (call, update) => recorder.task(call, update),
          recordInner: (record) => recorder.innerCall(record),
        }
      : {}),
    emit: parts.emit,
  };
}
