import { ConfigError } from "../errors.js";
import { JsonStateFile } from "../files/json-state-file.js";
import { isPlainObject } from "../util/plain-object.js";
import type { ConsentRecord, ConsentStore, ConsentSubject } from "./consent-store.js";
import { subjectId } from "./consent-subject.js";

/** The user's approvals file, beside the user config: never inside a workspace. */
export const APPROVALS_FILE = "approvals.json";

interface ApprovalsFile {
  version: 1;
  workspaces: Record<string, Record<string, ConsentRecord>>;
}

/**
 * Approvals in `~/.PseudoClaude/approvals.json`, keyed by the workspace's real path and by
 * subject (`kind:name`), each with the digest it was approved for, in a {@link JsonStateFile}
 * (whole, atomic, 0600). A file that cannot be read as approvals is never overwritten:
 * approving then fails and says which file to fix.
 */
export class FileConsentStore implements ConsentStore {
  private readonly state: JsonStateFile<ApprovalsFile>;

  constructor(readonly file: string) {
    this.state = new JsonStateFile(
      file,
      (data): data is ApprovalsFile =>
        isPlainObject(data) && data.version === 1 && isPlainObject(data.workspaces),
      () => ({ version: 1, workspaces: {} }),
      '{"version": 1, "workspaces": {...}}',
    );
  }

  isApproved(workspace: string, subject: ConsentSubject): boolean {
    const read = this.state.read();
    if (!read.ok) return false;
    const record = read.data.workspaces[workspace]?.[subjectId(subject)];
    if (!record) return false;
    return record.digest === subject.digest || !!subject.legacyDigests?.includes(record.digest);
  }

  approve(workspace: string, subjects: readonly ConsentSubject[]): void {
    const data = this.readForWrite();
    const records = data.workspaces[workspace] ?? {};
    data.workspaces[workspace] = records;
    const approvedAt = new Date().toISOString();
    for (const { legacyDigests: _legacy, ...subject } of subjects)
      records[subjectId(subject)] = { ...subject, approvedAt };
    this.state.write(data);
  }

  revoke(workspace: string, names?: readonly string[]): ConsentRecord[] {
    const data = this.readForWrite();
    const records = data.workspaces[workspace] ?? {};
    const revoked: ConsentRecord[] = [];
    for (const [key, record] of Object.entries(records)) {
      if (names && !names.includes(record.name) && !names.includes(key)) continue;
      revoked.push(record);
      delete records[key];
    }
    if (Object.keys(records).length === 0) delete data.workspaces[workspace];
    if (revoked.length > 0) this.state.write(data);
    return revoked;
  }

  list(workspace: string): ConsentRecord[] {
    const read = this.state.read();
    return read.ok ? Object.values(read.data.workspaces[workspace] ?? {}) : [];
  }

  private readForWrite(): ApprovalsFile {
    const read = this.state.read();
    if (read.ok) return read.data;
    throw new ConfigError(
      "approvals_unreadable",
      `Cannot use the approvals file ${this.file} (${read.why}); it is left as it is. Fix or remove it, then approve again.`,
      { details: { file: this.file } },
    );
  }
}
