import { type Diagnostic, formatDiagnostic, subAgentToolName } from "@pseudoclaude/core";
import {
  type ConsentSubject,
  consentWorkspaceKey,
  defaultConsentStore,
} from "@pseudoclaude/core/consent";
import { type AgentFile, loadAgentFiles } from "@pseudoclaude/plugin-agents";
import { loadCliConfig } from "../cli-agent.js";
import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { diagnosticsToJson } from "../json-output.js";
import { consentAction } from "../project-consent.js";

const ACTIONS = ["list", "approve", "revoke"] as const;

/** `pseudoclaude agents`: the sub-agents of agent files, and their approval. */
export const agentsCommand: CommandSpec = {
  name: "agents",
  summary:
    "List the sub-agents of .claude/agents and .PseudoClaude/agents files; approve the workspace's.",
  usage: `Usage: pseudoclaude agents [list] [--json]
       pseudoclaude agents approve [NAME...] | revoke [NAME...]

Agent files are Markdown with YAML front matter (name, description, tools, model), the format
Claude Code users keep, in .PseudoClaude/agents/ and .claude/agents/ of your home and of the
workspace (the workspace's replace yours of the same name). Each is the tool agent__<name>.
A workspace's agent runs on your tools: it is offered only once approved.

  --json   {"agents": [{"name", "tool", "description", "tools", "model", "layer", "file",
            "state"}], "diagnostics": [...]}`,
  flags: [],
  positionals: {
    min: 0,
    max: Number.POSITIVE_INFINITY,
    names: "[list | approve | revoke] [NAME...]",
  },
  run: runAgents,
};

async function runAgents({ flags, args, io }: CommandContext): Promise<number> {
  const [action = "list", ...names] = args;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new CliUsageError(
      "unexpected_argument",
      `"agents" takes list, approve or revoke (got "${action}"). Run "pseudoclaude agents --help".`,
    );
  const { workspace } = await loadCliConfig(flags, io);
  const diagnostics: Diagnostic[] = [];
  const files = loadAgentFiles(workspace, (diagnostic) => diagnostics.push(diagnostic));
  const store = defaultConsentStore();
  const key = consentWorkspaceKey(workspace);
  const subjects = files.flatMap((file): ConsentSubject[] =>
    file.approval ? [file.approval] : [],
  );
  // People name agents by their name; the store knows them as agent:<name>.
  const stored = names.map((name) => (name.startsWith("agent:") ? name : `agent:${name}`));
  if (action === "approve" || action === "revoke") {
    consentAction(action, {
      store,
      workspaceKey: key,
      kind: "sub_agent",
      what: "agent",
      subjects,
      names: stored,
      json: flags.json ?? false,
      out: io.stdout,
    });
    return EXIT.ok;
  }
  const state = (file: AgentFile) =>
    !file.approval
      ? "active"
      : store.isApproved(key, file.approval)
        ? "approved"
        : "needs-approval";
  if (flags.json) {
    writeJson(io.stdout, {
      agents: files.map((file) => ({
        name: file.name,
        tool: subAgentToolName(file.name),
        description: file.description,
        tools: file.tools ?? null,
        model: file.model ?? null,
        layer: file.layer,
        file: file.file,
        state: state(file),
      })),
      diagnostics: diagnosticsToJson(diagnostics),
    });
    return EXIT.ok;
  }
  for (const diagnostic of diagnostics) writeLine(io.stderr, formatDiagnostic(diagnostic));
  if (files.length === 0) writeLine(io.stdout, "No agent files.");
  for (const file of files)
    writeLine(
      io.stdout,
      `${state(file)}  ${file.name} (${subAgentToolName(file.name)})  tools: ${file.tools?.join(", ") ?? "all"}  ${file.description}  (${file.layer}: ${file.file})`,
    );
  return EXIT.ok;
}
