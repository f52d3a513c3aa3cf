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
  if (action === "revoke") {
    const known = store
      .list(key)
      .filter((record) => record.kind === "hook")
      .map((record) => record.name);
    const revoked = store.revoke(key, names.length > 0 ? names : known);
    if (flags.json)
      writeJson(io.stdout, { revoked: revoked.map(({ name, summary }) => ({ name, summary })) });
    else if (revoked.length === 0) writeLine(io.stdout, "Nothing to revoke.");
    else
      for (const record of revoked)
        writeLine(io.stdout, `revoked ${record.name}: ${record.summary}`);
    return EXIT.ok;
  }
  if (action === "approve") {
    const unknown = names.filter(
      (name) => !project.some((command) => command.approval.name === name),
    );
    if (unknown.length > 0)
      throw new CliUsageError(
        "unexpected_argument",
        `No hook of this workspace is named ${unknown.map((name) => `"${name}"`).join(", ")} (those that are: ${project.map((command) => command.approval.name).join(", ") || "none"}).`,
      );
    const chosen = project.filter((command) =>
      names.length > 0
        ? names.includes(command.approval.name)
        : !store.isApproved(key, command.approval),
    );
    if (chosen.length > 0)
      store.approve(
        key,
        chosen.map((command) => command.approval),
      );
    if (flags.json)
      writeJson(io.stdout, {
        approved: chosen.map(({ approval }) => ({
          name: approval.name,
          summary: approval.summary,
        })),
      });
    else if (chosen.length === 0) writeLine(io.stdout, "Nothing to approve.");
    else
      for (const { approval } of chosen)
        writeLine(io.stdout, `approved ${approval.name}: ${approval.summary}`);
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
