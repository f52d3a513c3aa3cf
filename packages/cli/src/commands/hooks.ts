import { type Diagnostic, formatDiagnostic } from "@pseudoclaude/core";
import {
  type ConsentSubject,
  consentWorkspaceKey,
  defaultConsentStore,
} from "@pseudoclaude/core/consent";
import {
  type HookCommand,
  hookFailureKey,
  hookFailureLog,
  loadHookCommands,
} from "@pseudoclaude/plugin-hooks";
import { loadCliConfig } from "../cli-agent.js";
import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { diagnosticsToJson } from "../json-output.js";
import { consentAction } from "../project-consent.js";

const ACTIONS = ["list", "approve", "revoke"] as const;

/** `pseudoclaude hooks`: the hooks of config and `.claude/settings.json`, and their approval. */
export const hooksCommand: CommandSpec = {
  name: "hooks",
  summary: "List the hooks (Claude Code format) and approve or revoke the workspace's own.",
  usage: `Usage: pseudoclaude hooks [list] [--json]
       pseudoclaude hooks approve [NAME...] | revoke [NAME...]

Hooks come from the hooks section of the config layers and from Claude Code's settings files
(~/.claude/settings.json, the workspace's .claude/settings.json and .claude/settings.local.json,
and managed settings, whose hooks need no approval).
A hook of the workspace is a command from whoever wrote the repository: it runs only once
approved (approve without names approves every one listed as needs-approval; a changed command
needs approving again). Each hook shows how often it failed in this workspace; events this
agent does not run are listed as hook_event_unsupported diagnostics.

  --json   {"hooks": [{"event", "matcher", "command", "origin", "layer", "file", "line",
            "timeout_ms", "on_failure", "name", "state", "failures", "last_failure"}],
            "diagnostics": [...]}`,
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
  const { workspace, config } = await loadCliConfig(flags, io);
  const diagnostics: Diagnostic[] = [];
  const commands = loadHookCommands(config, (diagnostic) => diagnostics.push(diagnostic));
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
  const failures = hookFailureLog(workspace).read();
  const failed = (command: HookCommand) => failures[hookFailureKey(command)];
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
        origin: command.origin,
        layer: command.layer,
        file: command.file,
        line: command.line ?? null,
        timeout_ms: command.timeoutMs,
        on_failure: command.onFailure,
        name: command.approval?.name ?? null,
        state: state(command),
        failures: failed(command)?.count ?? 0,
        last_failure: failed(command)?.last ?? null,
      })),
      diagnostics: diagnosticsToJson(diagnostics),
    });
    return EXIT.ok;
  }
  for (const diagnostic of diagnostics) writeLine(io.stderr, formatDiagnostic(diagnostic));
  if (commands.length === 0) writeLine(io.stdout, "No hooks.");
  for (const command of commands) {
    const failures = failed(command);
    writeLine(
      io.stdout,
      `${state(command)}  ${command.event}${command.matcher ? ` [${command.matcher}]` : ""}  ${command.command}  (${command.layer}: ${command.file}${command.line !== undefined ? `:${command.line}` : ""}${command.approval ? `, ${command.approval.name}` : ""})${failures ? `  failed ${failures.count}x, last: ${failures.last}` : ""}`,
    );
  }
  return EXIT.ok;
}
