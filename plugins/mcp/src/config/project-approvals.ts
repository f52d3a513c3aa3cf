import type { LoadedConfig } from "@pseudoclaude/core";
import type { ConsentSubject } from "@pseudoclaude/core/consent";
import { DefaultRedactor } from "@pseudoclaude/core/plugin";
import { loadServers } from "./load-servers.js";

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
