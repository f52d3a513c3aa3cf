import type { LoadedConfig } from "@pseudoclaude/core";
import {
  type ConsentSubject,
  consentWorkspaceKey,
  defaultConsentStore,
} from "@pseudoclaude/core/consent";
import { DefaultRedactor } from "@pseudoclaude/core/plugin";
import {
  FileCredentialStore,
  loadServers,
  loginToServer,
  projectServerApprovals,
} from "@pseudoclaude/plugin-mcp";
import { loadCliConfig } from "../cli-agent.js";
import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { openBrowser } from "../open-browser.js";
import { approveRequests, revokeApprovals } from "../project-consent.js";

const ACTIONS = ["approve", "revoke", "list", "login", "logout"] as const;

/** `pseudoclaude mcp approve|revoke|list`: which of the workspace's own servers may start. */
export const mcpCommand: CommandSpec = {
  name: "mcp",
  summary:
    "Approve, revoke or list the workspace's own MCP servers (they start only once approved).",
  usage: `Usage: pseudoclaude mcp approve [NAME...] [--json] [--workspace DIR]
       pseudoclaude mcp revoke [NAME...] [--json] [--workspace DIR]
       pseudoclaude mcp list [--json] [--workspace DIR]
       pseudoclaude mcp login SERVER | logout SERVER

A repository can carry servers in .PseudoClaude/config.yaml or .mcp.json. Its stdio servers
(and its HTTP servers whose headers use your environment) are a stranger's code until you
approve them for this workspace; until then they are listed as needs-approval and never run.
Servers of your user config need no approval.

  approve   approve the named servers, or every one still waiting; remembered in
            ~/.PseudoClaude/approvals.json for this workspace and this exact command
            (a changed command asks again)
  revoke    forget the approvals of the named servers, or all of this workspace
  list      every server that needs approval, and whether it has it

--trust-project on run, call, chat and tools consents to them for that one run without
remembering (--yes only answers tool approvals). pseudoclaude trust covers every kind of request.

  login     log in to an http or sse server behind OAuth: the URL to open is printed (and a
            browser opened where there is one); the browser comes back to 127.0.0.1 and the
            tokens are stored in ~/.PseudoClaude/oauth-credentials.json (mode 0600)
  logout    delete the stored tokens and client registration of that server`,
  flags: [],
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: "approve|revoke|list [NAME...]" },
  run: runMcp,
};

async function runMcp({ flags, args, io }: CommandContext): Promise<number> {
  const [action, ...names] = args;
  if (!(ACTIONS as readonly string[]).includes(action ?? "")) {
    throw new CliUsageError(
      "unexpected_argument",
      `"mcp" takes approve, revoke, list, login or logout (got "${action}"). Run "pseudoclaude mcp --help".`,
    );
  }
  const { workspace, config } = await loadCliConfig(flags, io);
  if (action === "login" || action === "logout")
    return runLogin(action, names, workspace, config, flags, io);
  const store = defaultConsentStore();
  const key = consentWorkspaceKey(workspace);
  const servers = projectServerApprovals(config, workspace);
  if (action === "revoke") {
    // Without names: every server approval, and only those (hooks and agents have their own).
    const revoked = revokeApprovals(store, key, names, { kind: "mcp_server" });
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
  const { chosen, approved, already } = approveRequests(
    store,
    key,
    servers.map((server) => server.subject),
    names,
    (unknown) =>
      `No server of this workspace that needs approval is named ${unknown.map((name) => `"${name}"`).join(", ")} (those that do: ${servers.map((server) => server.name).join(", ") || "none"}). Servers of your user config need no approval.`,
  );
  if (flags.json) {
    writeJson(io.stdout, {
      approved: approved.map(subjectJson),
      already_approved: already.map(subjectJson),
    });
  } else if (chosen.length === 0) {
    writeLine(
      io.stdout,
      "Nothing to approve: every server of this workspace that needs approval has it.",
    );
  } else {
    for (const subject of chosen)
      writeLine(
        io.stdout,
        `${already.includes(subject) ? "already approved" : "approved"} ${subject.name}: ${subject.summary}`,
      );
  }
  return EXIT.ok;
}

function subjectJson(subject: ConsentSubject) {
  return { name: subject.name, summary: subject.summary, digest: subject.digest };
}

async function runLogin(
  action: "login" | "logout",
  names: string[],
  workspace: string,
  config: LoadedConfig,
  flags: CommandContext["flags"],
  io: CommandContext["io"],
): Promise<number> {
  const [name] = names;
  const store = defaultConsentStore();
  const key = consentWorkspaceKey(workspace);
  const servers = loadServers(config, {
    workspace,
    redactor: new DefaultRedactor(),
    consent: { isApproved: (subject) => store.isApproved(key, subject) },
  }).servers;
  const server = servers.find((candidate) => candidate.name === name);
  if (!name || names.length > 1 || !server || server.transport === "stdio") {
    const remote = servers
      .filter((candidate) => candidate.transport !== "stdio")
      .map((candidate) => candidate.name);
    throw new CliUsageError(
      "unexpected_argument",
      `"mcp ${action}" takes the name of one http or sse server (those configured: ${remote.join(", ") || "none"}).`,
    );
  }
  if (action === "login" && server.approval && !store.isApproved(key, server.approval))
    throw new CliUsageError(
      "unexpected_argument",
      `Server "${server.name}" comes with the workspace and is not approved, so it is not contacted, not even to log in. Approve it first: pseudoclaude trust approve mcp_server:${server.name}`,
    );
  const credentials = new FileCredentialStore();
  if (action === "logout") {
    const removed = credentials.delete(server.url);
    if (flags.json) writeJson(io.stdout, { server: server.name, logged_out: removed });
    else
      writeLine(
        io.stdout,
        removed
          ? `Logged out of ${server.name}: its tokens are deleted.`
          : `No stored login for ${server.name}.`,
      );
    return EXIT.ok;
  }
  await loginToServer(server, {
    credentials,
    show: (url) => {
      writeLine(
        io.stderr,
        `Open this URL in your browser to log in to ${server.name}:\n  ${url.href}`,
      );
      openBrowser(url);
    },
  });
  if (flags.json)
    writeJson(io.stdout, { server: server.name, logged_in: true, file: credentials.file });
  else
    writeLine(
      io.stdout,
      `Logged in to ${server.name}; the tokens are stored in ${credentials.file}.`,
    );
  return EXIT.ok;
}
