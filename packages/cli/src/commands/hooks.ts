import { type Diagnostic, formatDiagnostic } from "@pseudoclaude/core";
import {
  type ConsentSubject,
  consentWorkspaceKey,
  defaultConsentStore,
} from "@pseudoclaude/core/consent";
import { type HookCommand, loadHookCommands } from "@pseudoclaude/plugin-hooks";
import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { diagnosticsToJson } from "../output.js";
import { consentAction } from "../project-consent.js";
import { loadSessionConfig } from "../session.js";

const ACTIONS = ["list", "approve", "revoke"] as const;

/** `pseudoclaude hooks`: the hooks of config and `.claude/settings.json`, and their approval. */
export const hooksCommand: CommandSpec = {
  name: "hooks",
  summary: "List the hooks (Claude Code format) and approve or revoke the workspace's own.",
  usage: `Usage: pseudoclaude hooks [list] [--json]
       pseudoclaude hooks approve [NAME...] | revoke [NAME...]

Hooks come from the hooks section of the config layers and from .claude/settings.json (yours
in ~/.claude and the workspace's). A hook of the workspace is a command from whoever wrote the
repository: it runs only once approved (approve without names approves every one listed as
needs-approval; a changed command needs approving again).

  --json   {"hooks": [{"event", "matcher", "command", "layer", "file", "timeout_ms",
            "on_failure", "name", "state"}], "diagnostics": [...]}`,
  flags: [],
  positionals: {
    min: 0,
    max: Number.POSITIVE_INFINITY,
    names: "[list | approve | revoke] [NAME...]",
  },
  run: runHooks,
};

async function runHooks({ flags, args, io }: CommandContext): Promise<number> {
  const [action = "list", ...names] = args;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new CliUsageError(
      "unexpected_argument",
      `"hooks" takes list, approve or revoke (got "${action}"). Run "pseudoclaude hooks --help".`,
    );
  const { workspace, config } = await loadSessionConfig(flags, io);
  const diagnostics: Diagnostic[] = [];
  const commands = loadHookCommands(config, workspace, (diagnostic) =>
    diagnostics.push(diagnostic),
  );
  const store = defaultConsentStore();
  const key = consentWorkspaceKey(workspace);
  const project = commands.filter(
    (command): command is HookCommand & { approval: ConsentSubject } => !!command.approval,
  );
  if (action === "approve" || action === "revoke") {
    consentAction(action, {
      store,
      workspaceKey: key,
      kind: "hook",
      what: "hook",
      subjects: project.map((command) => command.approval),
      names,
      json: flags.json ?? false,
      out: io.stdout,
    });
    return EXIT.ok;
  }
  const state = (command: HookCommand) =>
    !command.approval
      ? "active"
      : store.isApproved(key, command.approval)
        ? "approved"
        : "needs-approval";
  if (flags.json) {
    writeJson(io.stdout, {
      hooks: commands.map((command) => ({
        event: command.event,
        matcher: command.matcher,
        command: command.command,
        layer: command.layer,
        file: command.file,
        timeout_ms: command.timeoutMs,
        on_failure: command.onFailure,
        name: command.approval?.name ?? null,
        state: state(command),
      })),
      diagnostics: diagnosticsToJson(diagnostics),
    });
    return EXIT.ok;
  }
  for (const diagnostic of diagnostics) writeLine(io.stderr, formatDiagnostic(diagnostic));
  if (commands.length === 0) writeLine(io.stdout, "No hooks.");
  for (const command of commands)
    writeLine(
      io.stdout,
      `${state(command)}  ${command.event}${command.matcher ? ` [${command.matcher}]` : ""}  ${command.command}  (${command.layer}: ${command.file}${command.approval ? `, ${command.approval.name}` : ""})`,
    );
  return EXIT.ok;
}
