import { definePlugin, type Plugin } from "@pseudoclaude/core";
import type { PluginContext } from "@pseudoclaude/core/plugin";
import { createProcessRunner } from "@pseudoclaude/core/process";
import { HookDispatch } from "./hook-dispatch.js";
import { hookFailureLog } from "./hook-failure-log.js";
import { HOOKS_SECTION, HOOKS_SECTION_SPEC, loadHookCommands } from "./hooks-settings.js";
import { runHookCommand } from "./run-hook-command.js";
import { sessionHooks } from "./session-hooks.js";
import { toolCallHooks } from "./tool-call-hooks.js";

export const HOOKS_PLUGIN_NAME = "hooks";

export interface HooksPluginOptions {
  /** Whose home counts hook failures (`~/.PseudoClaude/hook-failures/`). Default: the user's. */
  homeDir?: string | undefined;
}

/**
 * Hooks from config in Claude Code's format: the `hooks` section of each config layer. Claude
 * Code's settings files are layers of that config when it was loaded with them
 * (`loadConfig({ workspace, foreignLayers: claudeCodeLayers() })`, as the CLI does): this plugin
 * reads no file of its own, so one loader owns them for permissions and hooks alike. Each Claude
 * Code event we run sits at its point of the loop (docs/hooks.md has the table); the others are
 * reported. A project hook runs only once the user approved it, like a project MCP server.
 */
export function hooks(options: HooksPluginOptions = {}): Plugin {
  return definePlugin({
    name: HOOKS_PLUGIN_NAME,
    sections: [HOOKS_SECTION_SPEC],
    trust: {
      widening: [
        {
          setting: "hooks, .claude/settings.json and .claude/settings.local.json hooks",
          kind: "hook",
          effect: "runs the repository's commands on your machine around every tool call",
        },
      ],
      requests: ({ config }) =>
        loadHookCommands(config, () => undefined).flatMap((command) =>
          command.approval ? [command.approval] : [],
        ),
    },
    register(context) {
      context.config.section(HOOKS_SECTION); // claimed: not an unknown section
      const report = (diagnostic: Parameters<PluginContext["report"]>[0]) =>
        context.report(diagnostic);
      const commands = loadHookCommands(context.config, report).filter((command) => {
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
      const dispatch = new HookDispatch(
        commands,
        (hook, input, signal) =>
          runHookCommand(
            runner,
            hook,
            input,
            { workspace: context.workspace, env: context.toolEnv },
            signal,
          ),
        report,
        hookFailureLog(context.workspace, options.homeDir),
      );
      const session = sessionHooks(dispatch);
      // Closers run in reverse order: SessionEnd's commands run before the runner closes.
      context.onClose(() => session.end());
      context.addHooks({ ...toolCallHooks(dispatch), ...session.hooks });
    },
  });
}
