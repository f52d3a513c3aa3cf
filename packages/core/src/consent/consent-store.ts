/**
 * Something a workspace's own files ask to run: a stdio MCP server of its config, an HTTP
 * server that would receive the user's environment in its headers. Starting it on the first
 * run in a cloned repository would run a stranger's code, so it needs the user's approval.
 */
export interface ConsentSubject {
  /** What kind of thing it is, e.g. `mcp_server`. */
  kind: string;
  name: string;
  /** A digest of everything that decides what runs: a changed command asks again. */
  digest: string;
  /** One line a person reads before approving: the command line or the URL. */
  summary: string;
}

/** One remembered approval. */
export interface ConsentRecord extends ConsentSubject {
  /** ISO time of the approval. */
  approvedAt: string;
}

/** Where approvals are remembered, per workspace. The default keeps them in the user's files. */
export interface ConsentStore {
  isApproved(workspace: string, subject: ConsentSubject): boolean;
  /** Remember the subjects as approved for the workspace (replacing older approvals of them). */
  approve(workspace: string, subjects: readonly ConsentSubject[]): void;
  /** Forget approvals of the workspace (of the named subjects, or all); returns what was forgotten. */
  revoke(workspace: string, names?: readonly string[]): ConsentRecord[];
  list(workspace: string): ConsentRecord[];
}

/** What a plugin asks: the agent's approvals, bound to its workspace. */
export interface WorkspaceConsent {
  isApproved(subject: ConsentSubject): boolean;
}

/**
 * How an agent treats project items that need approval: `remembered` (default) asks the store
 * in the user's files, `all` approves everything of this workspace for this agent only
 * (what the CLI's `--yes` does) and remembers nothing, or a store of your own.
 */
export type ProjectApprovals = "remembered" | "all" | ConsentStore;
