import {
  type AgentHooks,
  type BeforeToolCallResult,
  definePlugin,
  type Plugin,
  type ToolResult,
  textOf,
} from "@pseudoclaude/core";
import type { PluginContext } from "@pseudoclaude/core/plugin";
import { createProcessRunner } from "@pseudoclaude/core/process";
import { CLAUDE_TOOL_NAMES, claudeToolInput } from "./claude-tool-names.js";
import {
  HOOKS_SECTION,
  HOOKS_SECTION_SPEC,
  type HookCommand,
  type HookEvent,
  loadHookCommands,
  matcherPattern,
} from "./hooks-settings.js";
import { type HookAnswer, runHookCommand } from "./run-hook-command.js";

export const HOOKS_PLUGIN_NAME = "hooks";

export interface HooksPluginOptions {
  /** Where `~/.claude/settings.json` is looked for. Default: the user's home. */
  homeDir?: string;
}

/**
 * Hooks from config in Claude Code's format: the `hooks` section of each config layer and
 * `.claude/settings.json` (user and workspace). `PreToolUse` and `PostToolUse` become the
 * agent's `beforeToolCall` and `afterToolCall`, `UserPromptSubmit` its `beforeRun`, `Stop` its
 * `afterRun`. A project hook runs only once the user approved it, like a project MCP server.
 */
export function hooks(options: HooksPluginOptions = {}): Plugin {
  return definePlugin({
    name: HOOKS_PLUGIN_NAME,
    sections: [HOOKS_SECTION_SPEC],
    trust: {
      widening: [
        {
          setting: "hooks, .claude/settings.json hooks",
          kind: "hook",
          effect: "runs the repository's commands on your machine around every tool call",
        },
      ],
      requests: ({ config, workspace, homeDir }) =>
        loadHookCommands(config, workspace, () => undefined, options.homeDir ?? homeDir).flatMap(
          (command) => (command.approval ? [command.approval] : []),
        ),
    },
    register(context) {
      context.config.section(HOOKS_SECTION); // claimed: not an unknown section
      const report = (diagnostic: Parameters<PluginContext["report"]>[0]) =>
        context.report(diagnostic);
      const commands = loadHookCommands(
        context.config,
        context.workspace,
        report,
        options.homeDir,
      ).filter((command) => {
        if (!command.approval || context.consent.isApproved(command.approval)) return true;
        context.report({
          stage: "config",
          severity: "info",
          code: "hook_needs_approval",
          layer: command.layer,
          file: command.file,
          item: command.approval.name,
          message: `Project hook "${command.approval.summary}" comes with the workspace and is not approved, so it does not run. Approve it with: pseudoclaude hooks approve`,
        });
        return false;
      });
      if (commands.length === 0) return;
      const runner = createProcessRunner();
      context.onClose(() => runner.close());
      context.addHooks(
        claudeCodeHooks(commands, context, (hook, input, signal) =>
          runHookCommand(runner, hook, input, context.workspace, signal),
        ),
      );
    },
  });
}

type Run = (
  hook: HookCommand,
  input: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<HookAnswer>;

function claudeCodeHooks(commands: HookCommand[], context: PluginContext, run: Run): AgentHooks {
  const of = (event: HookEvent) => commands.filter((command) => command.event === event);
  const matching = (event: HookEvent, tool: string) =>
    of(event).filter((command) => {
      const pattern = matcherPattern(command.matcher);
      return !pattern || pattern.test(tool) || pattern.test(CLAUDE_TOOL_NAMES[tool] ?? "\0");
    });
  const failure = (hook: HookCommand, why: string) => {
    context.report({
      stage: "hooks",
      severity: "error",
      code: "hook_failed",
      file: hook.file,
      item: hook.command,
      message: `${hook.event} hook "${hook.command}" failed: ${why}${hook.onFailure === "block" ? "; the call was blocked (on_failure: block)" : ""}.`,
    });
    return `${hook.event} hook "${hook.command}" failed (${why}), so it was blocked.`;
  };
  const toolInput = (
    event: HookEvent,
    scope: { sessionId: string | undefined; workspace: string },
    name: string,
    args: unknown,
  ) => ({
    session_id: scope.sessionId ?? "",
    cwd: scope.workspace,
    hook_event_name: event,
    tool_name: CLAUDE_TOOL_NAMES[name] ?? name,
    tool_input: claudeToolInput(name, args),
  });
  const result: AgentHooks = {};
  if (of("PreToolUse").length > 0)
    result.beforeToolCall = async function PreToolUse(call) {
      let outcome: BeforeToolCallResult;
      let args = call.call.arguments;
      for (const hook of matching("PreToolUse", call.call.name)) {
        const answer = await run(
          hook,
          toolInput("PreToolUse", call, call.call.name, args),
          call.signal,
        );
        if (answer.kind === "failed") {
          const reason = failure(hook, answer.why);
          if (hook.onFailure === "block") return { action: "deny", reason };
          continue;
        }
        if (answer.kind === "block") return { action: "deny", reason: answer.reason };
        const decision = preToolDecision(answer.json);
        if (decision.deny !== undefined) return { action: "deny", reason: decision.deny };
        if (decision.input !== undefined) {
          args = decision.input;
          outcome = { action: "rewrite", arguments: args };
        } else if (decision.allow && outcome === undefined)
          outcome = { action: "allow", reason: decision.reason ?? `allowed by ${hook.command}` };
      }
      return outcome;
    };
  if (of("PostToolUse").length > 0)
    result.afterToolCall = async function PostToolUse(call) {
      let current: ToolResult = call.result;
      let changed = false;
      for (const hook of matching("PostToolUse", call.call.name)) {
        const answer = await run(
          hook,
          {
            ...toolInput("PostToolUse", call, call.call.name, call.call.arguments),
            tool_response: { ok: current.ok, content: textOf(current.content) },
          },
          call.signal,
        );
        const feedback =
          answer.kind === "block"
            ? answer.reason
            : answer.kind === "ok" && answer.json?.decision === "block"
              ? String(answer.json.reason ?? "blocked by a hook")
              : undefined;
        if (answer.kind === "failed") failure(hook, answer.why);
        if (feedback !== undefined) {
          // Claude Code shows the model a PostToolUse block as feedback on the result.
          current = {
            ...current,
            content: [...current.content, { type: "text", text: `[PostToolUse hook] ${feedback}` }],
          };
          changed = true;
        }
      }
      return changed
        ? { action: "rewrite", result: current, reason: "PostToolUse feedback" }
        : undefined;
    };
  if (of("UserPromptSubmit").length > 0)
    result.beforeRun = async function UserPromptSubmit(run_) {
      const added: string[] = [];
      for (const hook of of("UserPromptSubmit")) {
        const answer = await run(
          hook,
          {
            session_id: run_.sessionId ?? "",
            cwd: run_.workspace,
            hook_event_name: "UserPromptSubmit",
            prompt: run_.prompt,
          },
          run_.signal,
        );
        if (answer.kind === "failed") {
          const reason = failure(hook, answer.why);
          if (hook.onFailure === "block") return { action: "deny", reason };
          continue;
        }
        if (answer.kind === "block") return { action: "deny", reason: answer.reason };
        if (answer.json?.decision === "block")
          return { action: "deny", reason: String(answer.json.reason ?? "blocked by a hook") };
        const extra = answer.json ? contextOf(answer.json) : answer.stdout;
        if (extra) added.push(extra);
      }
      return added.length > 0 ? { context: added.join("\n") } : undefined;
    };
  if (of("Stop").length > 0)
    result.afterRun = async function Stop(runResult, scope) {
      for (const hook of of("Stop")) {
        const answer = await run(
          hook,
          {
            session_id: scope.sessionId ?? "",
            cwd: scope.workspace,
            hook_event_name: "Stop",
            stop_hook_active: false,
            stop_reason: runResult.stopReason,
          },
          scope.signal,
        );
        if (answer.kind === "failed") failure(hook, answer.why);
      }
    };
  return result;
}

/** A PreToolUse JSON answer: `hookSpecificOutput.permissionDecision`, or the older `decision`. */
function preToolDecision(json: Record<string, unknown> | undefined): {
  deny?: string;
  allow?: boolean;
  reason?: string;
  input?: unknown;
} {
  if (!json) return {};
  const specific = (json.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const reason = String(specific.permissionDecisionReason ?? json.reason ?? "") || undefined;
  const decision =
    specific.permissionDecision ??
    (json.decision === "block" ? "deny" : json.decision === "approve" ? "allow" : undefined);
  if (json.continue === false)
    return { deny: String(json.stopReason ?? reason ?? "stopped by a hook") };
  if (decision === "deny") return { deny: reason ?? "denied by a hook" };
  const out: { allow?: boolean; reason?: string; input?: unknown } = {};
  if (reason) out.reason = reason;
  if (decision === "allow") out.allow = true;
  if (specific.updatedInput !== undefined) out.input = specific.updatedInput;
  return out;
}

function contextOf(json: Record<string, unknown>): string {
  const specific = (json.hookSpecificOutput ?? {}) as Record<string, unknown>;
  return typeof specific.additionalContext === "string" ? specific.additionalContext : "";
}
