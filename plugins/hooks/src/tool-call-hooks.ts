import {
  additionalContextOf,
  blockOf,
  permissionRequestAnswer,
  preToolUseAnswer,
} from "@pseudoclaude/compat-claude-code";
import {
  type AgentHooks,
  type BeforeToolCallResult,
  type HookScope,
  type ToolDefinition,
  type ToolResult,
  textOf,
} from "@pseudoclaude/core";
import { claudeToolInput } from "./claude-tool-names.js";
import type { HookDispatch } from "./hook-dispatch.js";

/** The fields every Claude Code hook gets on stdin (`transcript_path` is not sent: we have no transcript file). */
export function commonInput(scope: Pick<HookScope, "sessionId" | "workspace">) {
  return { session_id: scope.sessionId ?? "", cwd: scope.workspace };
}

/**
 * A tool call as Claude Code's hooks read it: the tool under its first alias (Claude Code's
 * name for the built-in tools, `Bash`), or its own name.
 */
function toolInput(
  scope: Pick<HookScope, "sessionId" | "workspace">,
  call: { id: string; name: string },
  tool: ToolDefinition,
  args: unknown,
) {
  return {
    ...commonInput(scope),
    tool_name: tool.aliases?.[0] ?? call.name,
    tool_input: claudeToolInput(call.name, args),
    tool_use_id: call.id,
  };
}

/** Every name a matcher may give the tool: ours and its aliases (`run_command`, `Bash`). */
function namesOf(context: { call: { name: string }; tool: ToolDefinition }): string[] {
  return [context.call.name, ...(context.tool.aliases ?? [])];
}

/** What a hook said back to the model about a call that ran, added to its result. */
function withFeedback(result: ToolResult, event: string, text: string): ToolResult {
  return {
    ...result,
    content: [...result.content, { type: "text", text: `[${event} hook] ${text}` }],
  };
}

/**
 * PreToolUse as `beforeToolCall`; PermissionRequest, then Notification, as `beforeApproval`
 * (when the policy would ask a person); PostToolUse and PostToolUseFailure as
 * `afterToolCall`, by whether the call succeeded.
 */
export function toolCallHooks(dispatch: HookDispatch): AgentHooks {
  const hooks: AgentHooks = {};
  if (dispatch.has("PreToolUse"))
    hooks.beforeToolCall = async function PreToolUse(context) {
      let outcome: BeforeToolCallResult;
      let args = context.call.arguments;
      const input = () => toolInput(context, context.call, context.tool, args);
      for await (const answer of dispatch.each(
        "PreToolUse",
        input(),
        context.signal,
        namesOf(context),
      )) {
        if (answer.kind === "failed") continue;
        if (answer.kind === "block") return { action: "deny", reason: answer.reason };
        const decision = preToolUseAnswer(answer.json);
        if (decision.kind === "deny") return { action: "deny", reason: decision.reason };
        if (decision.input !== undefined) {
          args = decision.input;
          outcome = { action: "rewrite", arguments: args };
        } else if (decision.kind === "allow" && outcome === undefined)
          outcome = {
            action: "allow",
            reason: decision.reason ?? `allowed by ${answer.hook.command}`,
          };
      }
      return outcome;
    };
  if (dispatch.has("PermissionRequest") || dispatch.has("Notification"))
    hooks.beforeApproval = async function PermissionRequest(context) {
      const base = toolInput(context, context.call, context.tool, context.call.arguments);
      for await (const answer of dispatch.each(
        "PermissionRequest",
        { ...base, permission_suggestions: [] },
        context.signal,
        namesOf(context),
      )) {
        if (answer.kind === "failed") continue;
        if (answer.kind === "block") return { action: "deny", reason: answer.reason };
        const decision = permissionRequestAnswer(answer.json);
        if (decision.kind === "deny") return { action: "deny", reason: decision.message };
        if (decision.kind === "allow")
          return { action: "allow", reason: `allowed by ${answer.hook.command}` };
      }
      // No hook answered: a person is asked, and Claude Code tells the Notification hooks so.
      if (context.person)
        for await (const answer of dispatch.each(
          "Notification",
          {
            ...commonInput(context),
            message: `Claude needs your permission to use ${base.tool_name}`,
            notification_type: "permission_prompt",
          },
          context.signal,
          "permission_prompt",
        ))
          if (answer.kind === "block" && !answer.failed) dispatch.tell(answer.hook, answer.reason);
      return undefined;
    };
  if (dispatch.has("PostToolUse") || dispatch.has("PostToolUseFailure"))
    hooks.afterToolCall = async function PostToolUse(context) {
      const failed = !context.result.ok;
      const event = failed ? "PostToolUseFailure" : "PostToolUse";
      const base = toolInput(context, context.call, context.tool, context.call.arguments);
      const input = failed
        ? {
            ...base,
            error: context.result.error?.message ?? textOf(context.result.content),
            is_interrupt: context.result.error?.code === "cancelled",
          }
        : {
            ...base,
            tool_response: { ok: true, content: textOf(context.result.content) },
          };
      let current = context.result;
      for await (const answer of dispatch.each(event, input, context.signal, namesOf(context))) {
        // Claude Code shows the model a block (exit 2, decision "block") and additional
        // context as feedback on the result: the call already ran.
        const feedback =
          answer.kind === "block" && !answer.failed
            ? answer.reason
            : answer.kind === "ok"
              ? (blockOf(answer.json) ?? additionalContextOf(answer.json))
              : undefined;
        if (feedback !== undefined) current = withFeedback(current, event, feedback);
      }
      return current === context.result
        ? undefined
        : { action: "rewrite", result: current, reason: `${event} feedback` };
    };
  return hooks;
}
