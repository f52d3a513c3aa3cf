import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../errors.js";
import { isPlainObject } from "../util/plain-object.js";
import type { ConsentRecord, ConsentStore, ConsentSubject } from "./consent-store.js";

/** The user's approvals file, beside the user config: never inside a workspace. */
export const APPROVALS_FILE = "approvals.json";

interface ApprovalsFile {
  version: 1;
  workspaces: Record<string, Record<string, ConsentRecord>>;
}

/**
 * Approvals in `~/.PseudoClaude/approvals.json`, keyed by the workspace's real path and by
 * subject (`kind:name`), each with the digest it was approved for. Written whole to a
 * temporary file and renamed, so a crash never leaves half a file. A file that cannot be read
 * as approvals is never overwritten: approving then fails and says which file to fix.
 */
export class FileConsentStore implements ConsentStore {
  constructor(readonly file: string) {}

  isApproved(workspace: string, subject: ConsentSubject): boolean {
    const read = this.read();
    if (!read.ok) return false;
    const record = read.data.workspaces[workspace]?.[keyOf(subject)];
    return record?.digest === subject.digest;
  }

  approve(workspace: string, subjects: readonly ConsentSubject[]): void {
    const data = this.readForWrite();
    const records = data.workspaces[workspace] ?? {};
    data.workspaces[workspace] = records;
    const approvedAt = new Date().toISOString();
    for (const subject of subjects) records[keyOf(subject)] = { ...subject, approvedAt };
    this.write(data);
  }

  revoke(workspace: string, names?: readonly string[]): ConsentRecord[] {
    const data = this.readForWrite();
    const records = data.workspaces[workspace] ?? {};
    const revoked: ConsentRecord[] = [];
    for (const [key, record] of Object.entries(records)) {
      if (names && !names.includes(record.name)) continue;
      revoked.push(record);
      delete records[key];
    }
    if (Object.keys(records).length === 0) delete data.workspaces[workspace];
    if (revoked.length > 0) this.write(data);
    return revoked;
  }

  list(workspace: string): ConsentRecord[] {
    const read = this.read();
    return read.ok ? Object.values(read.data.workspaces[workspace] ?? {}) : [];
  }

  private read(): { ok: true; data: ApprovalsFile } | { ok: false; why: string } {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT")
        return { ok: true, data: { version: 1, workspaces: {} } };
      return { ok: false, why: (error as Error).message };
    }
    try {
      const data: unknown = JSON.parse(text);
      if (isPlainObject(data) && data.version === 1 && isPlainObject(data.workspaces))
        return { ok: true, data: data as unknown as ApprovalsFile };
      return { ok: false, why: 'it is not {"version": 1, "workspaces": {...}}' };
    } catch (error) {
      return { ok: false, why: (error as Error).message };
    }
  }

  private readForWrite(): ApprovalsFile {
    const read = this.read();
    if (read.ok) return read.data;
    throw new ConfigError(
      "approvals_unreadable",
      `Cannot use the approvals file ${this.file} (${read.why}); it is left as it is. Fix or remove it, then approve again.`,
      { details: { file: this.file } },
    );
  }

  private write(data: ApprovalsFile): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

function keyOf(subject: ConsentSubject): string {
  return `${subject.kind}:${subject.name}`;
}
