/**
 * What a workspace's files can ask for: an MCP server (`mcp_server`), a hook (`hook`), an
 * agent file (`agent`), a skill's pre-approved tools (`skill`), or a setting of a config section
 * that widens what the agent may do (`setting`: allow rules, a provider endpoint, extra roots).
 * Plugins may add kinds of their own.
 */
export type ConsentKind = "mcp_server" | "hook" | "agent" | "skill" | "setting" | (string & {});

/**
 * Something a workspace's own files ask for that widens what the agent does: a server to start,
 * a hook to run, an allow rule, a provider endpoint that would receive the user's key. A cloned
 * repository is a stranger's, so each needs the user's approval for that workspace, remembered
 * with a digest of everything that matters for safety: a change to any of it asks again.
 */
export interface ConsentSubject {
  /** What kind of thing it is, e.g. `mcp_server`. */
  kind: ConsentKind;
  name: string;
  /** A digest of everything that decides what it may do (see `consentDigest`). */
  digest: string;
  /** One line a person reads before approving: the command line, the URL, the setting. */
  summary: string;
  /** What approving lets it do, in the user's words ("sends your API key to api.example.com"). */
  effects?: string[];
  /** Digests an older release computed for the same subject: approvals of them still count. */
  legacyDigests?: string[];
}

/** One remembered approval. */
export interface ConsentRecord extends Omit<ConsentSubject, "legacyDigests"> {
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
 * How an agent treats what the workspace's files ask for: `remembered` (default) asks the store
 * in the user's files, `all` consents to everything of this workspace for this agent only
 * (what the CLI's `--trust-project` does) and remembers nothing, or a store of your own.
 */
export type ProjectApprovals = "remembered" | "all" | ConsentStore;
