import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CONFIG_DIR } from "../config/load-config.js";
import type { ConsentStore, ProjectApprovals, WorkspaceConsent } from "./consent-store.js";
import { APPROVALS_FILE, FileConsentStore } from "./file-consent-store.js";

/** The store the CLI and `createAgent` use by default: `<home>/.PseudoClaude/approvals.json`. */
export function defaultConsentStore(homeDir: string = os.homedir()): ConsentStore {
  return new FileConsentStore(path.join(homeDir, CONFIG_DIR, APPROVALS_FILE));
}

/** Approvals are keyed by the workspace's real path, so a link to it is the same workspace. */
export function consentWorkspaceKey(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return path.resolve(workspace);
  }
}

/** The agent's approvals for its workspace, as `createAgent` hands them to plugins. */
export function workspaceConsent(
  approvals: ProjectApprovals,
  workspace: string,
  homeDir: string | undefined,
): WorkspaceConsent {
  if (approvals === "all") return { isApproved: () => true };
  const store = approvals === "remembered" ? defaultConsentStore(homeDir) : approvals;
  const key = consentWorkspaceKey(workspace);
  return { isApproved: (subject) => store.isApproved(key, subject) };
}
