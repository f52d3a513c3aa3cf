import type {
  AfterToolCallContext,
  BeforeApprovalContext,
  BeforeToolCallContext,
  HookScope,
} from "../contracts/agent-hooks.js";
import type { PolicyDecision } from "../contracts/policy-engine.js";
import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import type { ToolResult } from "../contracts/tool-result.js";

/** Where a context keeps how to make its signal; the getter below reads it. */
const MAKE_SIGNAL = Symbol("makeSignal");

/**
 * The `signal` of every call's hook context: one getter, shared, that makes the signal when a
 * hook first reads it. An own, enumerable property, so a hook that spreads its context keeps
 * the signal. Written into an object literal, the getter was a new closure and accessor pair
 * for every context, twice a call (0.7 against 0.2 µs a context, measured).
 */
const SIGNAL_PROPERTY: PropertyDescriptor = {
  get(this: { [MAKE_SIGNAL]: () => AbortSignal }) {
    return this[MAKE_SIGNAL]();
  },
  enumerable: true,
  configurable: true,
};

/**
 * What the hooks around one call are given, written out field by field, with the signal made
 * only when a hook reads it (a call nobody can cancel has no signal of its own).
 */
export function callHookContext(
  scope: Omit<HookScope, "signal">,
  signal: () => AbortSignal,
  call: ToolCall,
  tool: ToolDefinition,
  turn: number,
): BeforeToolCallContext {
  const context = {
    workspace: scope.workspace,
    sessionId: scope.sessionId,
    call,
    tool,
    turn,
    [MAKE_SIGNAL]: signal,
  } as unknown as BeforeToolCallContext;
  Object.defineProperty(context, "signal", SIGNAL_PROPERTY);
  if (scope.subAgent) context.subAgent = scope.subAgent;
  return context;
}

/** The context of the `afterToolCall` hooks: the call's, with its result. */
export function afterCallHookContext(
  before: BeforeToolCallContext,
  result: ToolResult,
): AfterToolCallContext {
  const context = before as AfterToolCallContext;
  context.result = result;
  return context;
}

/** The context of the `beforeApproval` hooks: the call's, with the decision to approve. */
export function approvalHookContext(
  before: BeforeToolCallContext,
  decision: PolicyDecision,
  person: boolean,
): BeforeApprovalContext {
  const context = before as BeforeApprovalContext;
  context.decision = decision;
  context.person = person;
  return context;
}
