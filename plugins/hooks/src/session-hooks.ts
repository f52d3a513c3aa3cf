import { additionalContextOf, blockOf } from "@pseudoclaude/compat-claude-code";
import type { AgentHooks, BeforeRunContext, BeforeRunResult, HookScope } from "@pseudoclaude/core";
import type { HookDispatch } from "./hook-dispatch.js";
import type { HookEvent } from "./hooks-settings.js";
import { commonInput } from "./tool-call-hooks.js";

/** The session hooks, and what the plugin runs when the agent closes. */
export interface SessionHooks {
  hooks: AgentHooks;
  /** SessionEnd, once, if a session started; for `agent.close()`. */
  end(): Promise<void>;
}

/**
 * The hooks around runs and sessions. A session here is one agent (one `run`, one `chat`):
 * SessionStart before its first prompt (`source` `startup`, or `resume` when the agent moved
 * to another saved session), SessionEnd when it closes. UserPromptSubmit before each prompt
 * and Stop after each run; a sub-agent's run gets SubagentStart and SubagentStop instead.
 * PreCompact before the conversation is summarised.
 */
export function sessionHooks(dispatch: HookDispatch): SessionHooks {
  const hooks: AgentHooks = {};
  let started: { sessionId: string | undefined; workspace: string } | undefined;
  const hasRunStart = ["SessionStart", "UserPromptSubmit", "SubagentStart"].some((event) =>
    dispatch.has(event as HookEvent),
  );
  if (hasRunStart || dispatch.has("SessionEnd"))
    hooks.beforeRun = async function UserPromptSubmit(context) {
      if (context.subAgent) return subagentStart(dispatch, context, context.subAgent);
      const added: string[] = [];
      if (!started || started.sessionId !== context.sessionId) {
        const source = started ? "resume" : "startup";
        started = { sessionId: context.sessionId, workspace: context.workspace };
        const result = await contextHooks(
          dispatch,
          "SessionStart",
          { ...commonInput(context), source },
          context.signal,
          source,
          // SessionStart cannot block in Claude Code: exit 2 only shows stderr to the user.
          false,
        );
        if (result && "action" in result) return result;
        if (result) added.push(result.context);
      }
      const prompt = await contextHooks(
        dispatch,
        "UserPromptSubmit",
        { ...commonInput(context), prompt: context.prompt },
        context.signal,
        undefined,
        true,
      );
      if (prompt && "action" in prompt) return prompt;
      if (prompt) added.push(prompt.context);
      return added.length > 0 ? { context: added.join("\n") } : undefined;
    };
  if (dispatch.has("Stop") || dispatch.has("SubagentStop"))
    hooks.afterRun = async function Stop(result, scope) {
      const sub = scope.subAgent;
      const input = {
        ...commonInput(scope),
        stop_hook_active: false,
        last_assistant_message: result.text,
        ...(sub ? { agent_id: sub.parentCallId, agent_type: sub.agent } : {}),
      };
      // A block asks Claude Code to keep going; a run here has ended, so the user is told
      // instead (the dispatch already reported failures).
      for await (const answer of dispatch.each(
        sub ? "SubagentStop" : "Stop",
        input,
        scope.signal,
        sub?.agent,
      )) {
        const block =
          answer.kind === "block" && !answer.failed
            ? answer.reason
            : answer.kind === "ok"
              ? blockOf(answer.json)
              : undefined;
        if (block !== undefined)
          dispatch.tell(answer.hook, `asked the agent to go on (${block}); the run has ended here`);
      }
    };
  if (dispatch.has("PreCompact"))
    hooks.beforeCompaction = async function PreCompact(context) {
      for await (const answer of dispatch.each(
        "PreCompact",
        { ...commonInput(context), trigger: context.trigger, custom_instructions: "" },
        context.signal,
        context.trigger,
      )) {
        if (answer.kind === "block") return { action: "skip", reason: answer.reason };
        const block = answer.kind === "ok" ? blockOf(answer.json) : undefined;
        if (block !== undefined) return { action: "skip", reason: block };
      }
      return undefined;
    };
  return {
    hooks,
    async end() {
      if (!started || !dispatch.has("SessionEnd")) return;
      const scope = started;
      started = undefined;
      for await (const answer of dispatch.each(
        "SessionEnd",
        { ...commonInput(scope), reason: "other" },
        AbortSignal.timeout(60_000),
        "other",
      ))
        if (answer.kind === "block" && !answer.failed) dispatch.tell(answer.hook, answer.reason);
    },
  };
}

/**
 * Run an event whose hooks may add context for the model (exit 0: `additionalContext`, or
 * plain stdout) and, where `blocks`, stop what follows (exit 2, `decision: "block"`). A failure
 * with `on_failure: block` stops it whatever the event.
 */
async function contextHooks(
  dispatch: HookDispatch,
  event: HookEvent,
  input: Record<string, unknown>,
  signal: AbortSignal,
  match: string | undefined,
  blocks: boolean,
): Promise<{ action: "deny"; reason: string } | { context: string } | undefined> {
  const added: string[] = [];
  for await (const answer of dispatch.each(event, input, signal, match)) {
    if (answer.kind === "failed") continue;
    if (answer.kind === "block") {
      if (blocks || answer.failed) return { action: "deny", reason: answer.reason };
      // Exit 2 where the event cannot block: Claude Code shows stderr to the user.
      dispatch.tell(answer.hook, answer.reason);
      continue;
    }
    const block = blocks ? blockOf(answer.json) : undefined;
    if (block !== undefined) return { action: "deny", reason: block };
    const extra = answer.json ? additionalContextOf(answer.json) : answer.stdout;
    if (extra) added.push(extra);
  }
  return added.length > 0 ? { context: added.join("\n") } : undefined;
}

/** SubagentStart: cannot block in Claude Code; its additional context reaches the sub-agent. */
async function subagentStart(
  dispatch: HookDispatch,
  context: BeforeRunContext,
  subAgent: NonNullable<HookScope["subAgent"]>,
): Promise<BeforeRunResult> {
  if (!dispatch.has("SubagentStart")) return undefined;
  const result = await contextHooks(
    dispatch,
    "SubagentStart",
    {
      ...commonInput(context),
      agent_id: subAgent.parentCallId,
      agent_type: subAgent.agent,
    },
    context.signal,
    subAgent.agent,
    false,
  );
  return result;
}
