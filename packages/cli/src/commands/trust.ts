import {
  type ConsentRecord,
  type ConsentSubject,
  consentWorkspaceKey,
  defaultConsentStore,
  subjectId,
} from "@pseudoclaude/core/consent";
import { loadCliConfig } from "../cli-agent.js";
import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { defaultPlugins } from "../default-plugins.js";
import { EXIT } from "../exit-codes.js";
import { loadPluginModules } from "../load-plugins.js";
import { approveRequests, revokeApprovals } from "../project-consent.js";
import { wideningSettings, wideningTable, workspaceRequests } from "../workspace-requests.js";

const ACTIONS = ["list", "approve", "revoke", "table"] as const;

/** `pseudoclaude trust`: what the workspace's files ask for, and the user's consent to it. */
export const trustCommand: CommandSpec = {
  name: "trust",
  summary:
    "Show what the workspace's files ask for that widens the agent, and approve or revoke it.",
  usage: `Usage: pseudoclaude trust [list] [--json] [--workspace DIR] [--plugin PATH]...
       pseudoclaude trust approve [KIND:NAME...]
       pseudoclaude trust revoke [KIND:NAME...]
       pseudoclaude trust table [--plugin PATH]...

A repository's files (.PseudoClaude/config.yaml, .mcp.json, .claude/settings.json,
.claude/agents, its skills) may always narrow what the agent does. What would widen it (an MCP
server, a hook, an agent file, a skill's allowed-tools, allow rules, a looser mode, a provider
endpoint, extra roots) counts only once you approve it for this workspace. An approval covers a
digest of everything that matters for safety: any change asks again. docs/security.md lists
every such setting.

  list      (default) each request: KIND:NAME, approved or needs-approval, what it would do
  approve   approve the named requests, or every one still waiting; remembered in
            ~/.PseudoClaude/approvals.json for this workspace
  revoke    forget the approvals of the named requests, or all of this workspace
  table     every setting that needs consent, with the plugins of --plugin too, as the
            Markdown table docs/security.md carries (built from the code that enforces it)

--trust-project on run, call, chat and tools consents for one run without remembering; --yes
only answers tool approvals. mcp, hooks and agents approve|revoke do the same for their kind.

  --json    list: {"workspace", "requests": [{"id", "kind", "name", "summary", "effects",
            "digest", "state"}], "approvals": [{"id", "kind", "name", "summary",
            "approved_at", "current"}]}; approve: {"approved": [...], "already_approved":
            [...]}; revoke: {"revoked": [...]}`,
  flags: [],
  positionals: {
    min: 0,
    max: Number.POSITIVE_INFINITY,
    names: "[list | approve | revoke | table] [KIND:NAME...]",
  },
  run: runTrust,
};

async function runTrust({ flags, args, io }: CommandContext): Promise<number> {
  const [action = "list", ...names] = args;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new CliUsageError(
      "unexpected_argument",
      `"trust" takes list, approve or revoke (got "${action}"). Run "pseudoclaude trust --help".`,
    );
  const plugins = [...defaultPlugins(), ...(await loadPluginModules(flags.plugin ?? [], io.cwd))];
  if (action === "table") {
    writeLine(io.stdout, wideningTable(wideningSettings(plugins)));
    return EXIT.ok;
  }
  const { workspace, config } = await loadCliConfig(flags, io);
  const requests = await workspaceRequests(plugins, { config, workspace });
  const store = defaultConsentStore();
  const key = consentWorkspaceKey(workspace);
  const approved = (subject: ConsentSubject) => store.isApproved(key, subject);

  if (action === "revoke") {
    const revoked = revokeApprovals(store, key, names, {
      unknown: (missing) =>
        `Nothing of this workspace is approved as ${missing.map((name) => `"${name}"`).join(", ")} (approved: ${store.list(key).map(subjectId).join(", ") || "nothing"}).`,
    });
    if (flags.json) writeJson(io.stdout, { revoked: revoked.map(recordJson) });
    else if (revoked.length === 0) writeLine(io.stdout, "Nothing to revoke.");
    else
      for (const record of revoked)
        writeLine(io.stdout, `revoked ${subjectId(record)}: ${record.summary}`);
    return EXIT.ok;
  }

  if (action === "approve") {
    const {
      chosen,
      approved: done,
      already,
    } = approveRequests(
      store,
      key,
      requests,
      names,
      (missing) =>
        `This workspace asks for nothing named ${missing.map((name) => `"${name}"`).join(", ")} (it asks for: ${requests.map(subjectId).join(", ") || "nothing"}).`,
    );
    if (flags.json)
      writeJson(io.stdout, {
        approved: done.map(subjectJson),
        already_approved: already.map(subjectJson),
      });
    else if (chosen.length === 0)
      writeLine(io.stdout, "Nothing to approve: everything this workspace asks for is approved.");
    else
      for (const subject of chosen)
        writeLine(
          io.stdout,
          `${already.includes(subject) ? "already approved" : "approved"} ${subjectId(subject)}: ${subject.summary}`,
        );
    return EXIT.ok;
  }

  const records = store.list(key);
  const current = (record: ConsentRecord) =>
    requests.some(
      (subject) =>
        subjectId(subject) === subjectId(record) &&
        (subject.digest === record.digest || !!subject.legacyDigests?.includes(record.digest)),
    );
  if (flags.json) {
    writeJson(io.stdout, {
      workspace: key,
      requests: requests.map((subject) => ({
        ...subjectJson(subject),
        state: approved(subject) ? "approved" : "needs-approval",
      })),
      approvals: records.map((record) => ({ ...recordJson(record), current: current(record) })),
    });
    return EXIT.ok;
  }
  if (requests.length === 0)
    writeLine(io.stdout, "This workspace's files ask for nothing beyond your own settings.");
  for (const subject of requests) {
    writeLine(
      io.stdout,
      `${approved(subject) ? "approved      " : "needs-approval"}  ${subjectId(subject)}  ${subject.summary}`,
    );
    for (const effect of subject.effects ?? []) writeLine(io.stdout, `                  ${effect}`);
  }
  const stale = records.filter((record) => !current(record));
  if (stale.length > 0) {
    writeLine(io.stdout, "Approved before, no longer asked for as approved (changed or removed):");
    for (const record of stale) writeLine(io.stdout, `  ${subjectId(record)}  ${record.summary}`);
  }
  return EXIT.ok;
}

function subjectJson(subject: ConsentSubject) {
  return {
    id: subjectId(subject),
    kind: subject.kind,
    name: subject.name,
    summary: subject.summary,
    effects: subject.effects ?? [],
    digest: subject.digest,
  };
}

function recordJson(record: ConsentRecord) {
  return {
    id: subjectId(record),
    kind: record.kind,
    name: record.name,
    summary: record.summary,
    digest: record.digest,
    approved_at: record.approvedAt,
  };
}
