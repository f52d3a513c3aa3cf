import {
  type ConsentSubject,
  consentWorkspaceKey,
  defaultConsentStore,
} from "@pseudoclaude/core/consent";
import { projectServerApprovals } from "@pseudoclaude/plugin-mcp";
import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { loadSessionConfig } from "../session.js";

const ACTIONS = ["approve", "revoke", "list"] as const;

/** `pseudoclaude mcp approve|revoke|list`: which of the workspace's own servers may start. */
export const mcpCommand: CommandSpec = {
  name: "mcp",
  summary:
    "Approve, revoke or list the workspace's own MCP servers (they start only once approved).",
  usage: `Usage: pseudoclaude mcp approve [NAME...] [--json] [--workspace DIR]
       pseudoclaude mcp revoke [NAME...] [--json] [--workspace DIR]
       pseudoclaude mcp list [--json] [--workspace DIR]

A repository can carry servers in .PseudoClaude/config.yaml or .mcp.json. Its stdio servers
(and its HTTP servers whose headers use your environment) are a stranger's code until you
approve them for this workspace; until then they are listed as needs-approval and never run.
Servers of your user config need no approval.

  approve   approve the named servers, or every one still waiting; remembered in
            ~/.PseudoClaude/approvals.json for this workspace and this exact command
            (a changed command asks again)
  revoke    forget the approvals of the named servers, or all of this workspace
  list      every server that needs approval, and whether it has it

--yes on run, call and chat approves them for that one run without remembering.`,
  flags: [],
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: "approve|revoke|list [NAME...]" },
  run: runMcp,
};

async function runMcp({ flags, args, io }: CommandContext): Promise<number> {
  const [action, ...names] = args;
  if (!(ACTIONS as readonly string[]).includes(action ?? "")) {
    throw new CliUsageError(
      "unexpected_argument",
      `"mcp" takes approve, revoke or list (got "${action}"). Run "pseudoclaude mcp --help".`,
    );
  }
  const { workspace, config } = await loadSessionConfig(flags, io);
  const store = defaultConsentStore();
  const key = consentWorkspaceKey(workspace);
  const servers = projectServerApprovals(config, workspace);
  if (action === "revoke") {
    const revoked = store.revoke(key, names.length > 0 ? names : undefined);
    if (flags.json) writeJson(io.stdout, { revoked: revoked.map(subjectJson) });
    else if (revoked.length === 0) writeLine(io.stdout, "Nothing to revoke.");
    else
      for (const record of revoked)
        writeLine(io.stdout, `revoked ${record.name}: ${record.summary}`);
    return EXIT.ok;
  }
  const listed = servers.map((server) => ({
    ...server,
    approved: store.isApproved(key, server.subject),
  }));
  if (action === "list") {
    if (flags.json)
      writeJson(io.stdout, {
        workspace: key,
        servers: listed.map((server) => ({
          ...subjectJson(server.subject),
          approved: server.approved,
        })),
      });
    else if (listed.length === 0)
      writeLine(io.stdout, "No server of this workspace needs approval.");
    else
      for (const server of listed)
        writeLine(
          io.stdout,
          `${server.approved ? "approved" : "needs-approval"}  ${server.name}  ${server.subject.summary}`,
        );
    return EXIT.ok;
  }
  const unknown = names.filter((name) => !servers.some((server) => server.name === name));
  if (unknown.length > 0) {
    const known = servers.map((server) => server.name).join(", ") || "none";
    throw new CliUsageError(
      "unexpected_argument",
      `No server of this workspace that needs approval is named ${unknown.map((name) => `"${name}"`).join(", ")} (those that do: ${known}). Servers of your user config need no approval.`,
    );
  }
  const chosen = listed.filter((server) =>
    names.length > 0 ? names.includes(server.name) : !server.approved,
  );
  const approving: ConsentSubject[] = chosen
    .filter((server) => !server.approved)
    .map((server) => server.subject);
  if (approving.length > 0) store.approve(key, approving);
  if (flags.json) {
    writeJson(io.stdout, {
      approved: approving.map(subjectJson),
      already_approved: chosen
        .filter((server) => server.approved)
        .map((server) => subjectJson(server.subject)),
    });
  } else if (chosen.length === 0) {
    writeLine(
      io.stdout,
      "Nothing to approve: every server of this workspace that needs approval has it.",
    );
  } else {
    for (const server of chosen)
      writeLine(
        io.stdout,
        `${server.approved ? "already approved" : "approved"} ${server.name}: ${server.subject.summary}`,
      );
  }
  return EXIT.ok;
}

function subjectJson(subject: ConsentSubject) {
  return { name: subject.name, summary: subject.summary, digest: subject.digest };
}
