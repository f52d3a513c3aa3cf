import type {
  AfterToolCallContext,
  BeforeApprovalContext,
  BeforeToolCallContext,
  HookScope,
} from "../hooks/agent-hooks.js";
import type { PolicyDecision } from "../policy/policy-engine.js";
import type { ToolCall } from "../tools/tool-call.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import type { ToolResult } from "../tools/tool-result.js";

/**
 * What the hooks around one call are given, written out field by field, with the signal made
 * only when a hook reads it (a call nobody can cancel has no signal of its own). A literal that
 * spread the agent's scope and then defined the getter was most of what one no-op hook cost a
 * call: 30 µs against 18 written out, measured on an in-memory tool.
 */
export function callHookContext(
  scope: Omit<HookScope, "signal">,
  signal: () => AbortSignal,
  call: ToolCall,
  tool: ToolDefinition,
  turn: number,
): BeforeToolCallContext {
  const context: BeforeToolCallContext = {
    workspace: scope.workspace,
    sessionId: scope.sessionId,
    get signal() {
      return signal();
    },
    call,
    tool,
    turn,
  };
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
