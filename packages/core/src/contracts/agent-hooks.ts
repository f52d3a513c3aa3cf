import type { SubAgentTag } from "./agent-events.js";
import type { Message } from "./message.js";
import type { PolicyDecision } from "./policy-engine.js";
import type { RunResult } from "./run-records.js";
import type { ToolCall } from "./tool-call.js";
import type { ToolDefinition } from "./tool-definition.js";
import type { ToolResult } from "./tool-result.js";

/**
 * What every hook is told: where the agent runs and which session it saves to. A sub-agent's
 * hooks also get `subAgent` (its name, depth and the parent's call that runs it), and the
 * parent's `sessionId`, so a hook can tell a sub-agent's run from the user's.
 */
export interface HookScope {
  workspace: string;
  sessionId: string | undefined;
  signal: AbortSignal;
  subAgent?: SubAgentTag;
}

/** A tool call about to be decided: its tool, and arguments as the registry validated them. */
export interface BeforeToolCallContext extends HookScope {
  call: ToolCall;
  tool: ToolDefinition;
  turn: number;
}

/**
 * What a `beforeToolCall` hook decides. Nothing (or `continue`): no objection. `allow`: no
 * approval prompt is needed (the policy still decides: a deny stays a deny). `deny`: the call
 * does not run and the model reads `reason`. `rewrite`: run with these arguments instead
 * (validated against the tool's schema again; the policy decides on them).
 */
export type BeforeToolCallResult =
  | undefined
  | { action: "continue" }
  | { action: "allow"; reason?: string | undefined }
  | { action: "deny"; reason: string }
  | { action: "rewrite"; arguments: unknown; reason?: string | undefined };

/** A call that ran, with its result. */
export interface AfterToolCallContext extends BeforeToolCallContext {
  result: ToolResult;
}

/** `rewrite`: the model reads `result` instead. */
export type AfterToolCallResult =
  | undefined
  | { action: "rewrite"; result: ToolResult; reason?: string | undefined };

/**
 * A call the policy would ask a person about (after the `beforeToolCall` hooks, which did not
 * allow it). `person`: whether someone will be asked if no hook decides (an approval callback
 * is set).
 */
export interface BeforeApprovalContext extends BeforeToolCallContext {
  decision: PolicyDecision;
  person: boolean;
}

/**
 * What a `beforeApproval` hook decides: nothing asks the person as usual; `allow` runs the call
 * without asking; `deny` refuses it and the model reads `reason`. A hook that throws denies.
 */
export type BeforeApprovalResult =
  | undefined
  | { action: "allow"; reason?: string | undefined }
  | { action: "deny"; reason: string };

/** The conversation is about to be summarised: `manual` for `agent.compact()`, `auto` when it outgrew the window. */
export interface BeforeCompactionContext extends HookScope {
  trigger: "manual" | "auto";
  turn: number;
}

/** `skip`: do not summarise this time (the request is sent as it is, or with stubs only). */
export type BeforeCompactionResult = undefined | { action: "skip"; reason: string };

/** A model request about to be sent. */
export interface BeforeModelRequestContext extends HookScope {
  turn: number;
  system: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
}

/** `system`: send this system prompt instead (for this request). */
export type BeforeModelRequestResult = undefined | { system?: string | undefined };

/** A prompt about to start a run. */
export interface BeforeRunContext extends HookScope {
  prompt: string;
}

/** `deny`: the run does not start (a `UsageError` `run_blocked` with the reason). `context`: text added after the prompt. */
export type BeforeRunResult = undefined | { action: "deny"; reason: string } | { context: string };

/** One hook or several, run in order. */
export type OneOrMany<T> = T | readonly T[];

/**
 * Hooks around the loop, in code (`createAgent({ hooks })`) or added by plugins
 * (`context.addHooks`). Each runs in the order given; `beforeToolCall` stops at the first
 * deny, and rewrites apply one after another.
 */
export interface AgentHooks {
  beforeRun?: OneOrMany<(context: BeforeRunContext) => BeforeRunResult | Promise<BeforeRunResult>>;
  beforeToolCall?: OneOrMany<
    (context: BeforeToolCallContext) => BeforeToolCallResult | Promise<BeforeToolCallResult>
  >;
  afterToolCall?: OneOrMany<
    (context: AfterToolCallContext) => AfterToolCallResult | Promise<AfterToolCallResult>
  >;
  beforeModelRequest?: OneOrMany<
    (
      context: BeforeModelRequestContext,
    ) => BeforeModelRequestResult | Promise<BeforeModelRequestResult>
  >;
  afterRun?: OneOrMany<(result: RunResult, scope: HookScope) => void | Promise<void>>;
  /** Before a person is asked to approve a call: a hook may answer in their place. */
  beforeApproval?: OneOrMany<
    (context: BeforeApprovalContext) => BeforeApprovalResult | Promise<BeforeApprovalResult>
  >;
  /** Before the context manager summarises the conversation. */
  beforeCompaction?: OneOrMany<
    (context: BeforeCompactionContext) => BeforeCompactionResult | Promise<BeforeCompactionResult>
  >;
}

export type { HookNote } from "./run-records.js";
