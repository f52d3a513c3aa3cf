import type { LoadedConfig } from "@pseudoclaude/core";
import type { ConsentSubject, WideningSetting } from "@pseudoclaude/core/consent";
import { DefaultRedactor } from "@pseudoclaude/core/plugin";
import { loadServers } from "./load-servers.js";

/** What a workspace's MCP servers may do only with the user's consent. */
export const MCP_WIDENING: readonly WideningSetting[] = [
  {
    setting: "mcp_servers.<name> (stdio), .mcp.json",
    kind: "mcp_server",
    effect: "runs a command of the repository's on your machine",
  },
  {
    setting: "mcp_servers.<name> (http, sse), .mcp.json",
    kind: "mcp_server",
    effect: "sends the agent's tool calls and their arguments to a host the repository picks",
  },
  {
    setting: "mcp_servers.<name> with a user server's name",
    kind: "mcp_server",
    effect: "replaces your server of that name, and your rules for it would apply to the stranger",
  },
  {
    setting: "${VAR} in mcp_servers env, headers, url (and .mcp.json command, args)",
    kind: "mcp_server",
    effect: "reads your environment and sends the values to the server",
  },
  {
    setting: "mcp_servers.<name>.inherit_env",
    kind: "mcp_server",
    effect: "passes your whole environment (keys included) to the server's process",
  },
  {
    setting: "mcp_servers.<name>.read_only, read_only_tools, trust_annotations",
    kind: "mcp_server",
    effect: "runs the server's tools with no question on its word that they only read",
  },
  {
    setting: "mcp_servers.<name>.tools, sampling, oauth",
    kind: "mcp_server",
    effect:
      "changes which of its tools are offered, lets it ask your model for completions, or how it logs in",
  },
];

/** A server of the workspace's files that needs the user's approval to start. */
export interface ProjectServerApproval {
  name: string;
  transport: string;
  subject: ConsentSubject;
}

/**
 * The servers of a workspace that need approval before they start, without starting anything:
 * what `pseudoclaude mcp approve` and `chat` ask about. Same rules as the plugin's.
 */
export function projectServerApprovals(
  config: LoadedConfig,
  workspace: string,
  options: { env?: NodeJS.ProcessEnv; mcpJson?: boolean } = {},
): ProjectServerApproval[] {
  // No consent given: nothing of the user's environment is expanded into these.
  const loaded = loadServers(config, {
    workspace,
    redactor: new DefaultRedactor(),
    ...(options.env ? { env: options.env } : {}),
    ...(options.mcpJson === false ? { mcpJson: false } : {}),
  });
  return loaded.servers.flatMap((server) =>
    server.approval
      ? [{ name: server.name, transport: server.transport, subject: server.approval }]
      : [],
  );
}
