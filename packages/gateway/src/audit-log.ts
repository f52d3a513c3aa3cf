import { type FileHandle, mkdir, open, stat } from "node:fs/promises";
import path from "node:path";
import { DefaultRedactor, type Redactor } from "@pseudoclaude/core/plugin";

/** One line of the audit file: who called what, what was decided, and how it ended. */
export interface AuditRecord {
  time: string;
  /** `call`, or `resource` / `prompt` for re-exported upstream features. */
  kind: "call" | "resource" | "prompt";
  transport: "stdio" | "http";
  era: "2025-11-25" | "2026-07-28";
  /** The client as it named itself, and the token's subject or client id over HTTP. */
  who: { client?: string; principal?: string };
  /** The exported name (or URI, prompt name) and the registry's own. */
  what: { name: string; tool?: string; source?: string; arguments?: unknown };
  /**
   * `allow` / `deny` by the policy; `ask` when the client was asked (the call comes again with
   * the answer); `approved` / `rejected` by the client's person; `refused` when the policy
   * would ask and nobody could answer.
   */
  decision: "allow" | "deny" | "ask" | "approved" | "rejected" | "refused";
  reason?: string;
  outcome: "ok" | "error" | "input_required";
  error?: string;
  durationMs: number;
}

/** How often, at most, the log checks that its file is still the one it has open. */
const REOPEN_CHECK_MS = 1_000;

/**
 * Appends audit records as JSON lines, in order, secrets redacted (values under secret-looking
 * keys, and known token shapes). A write that fails is reported once and never fails a call.
 * The file stays open between records, and records that arrive during a write go out together
 * in the next: opening and closing the file for every record cost the gateway about a tenth of
 * its time a call (profiled). A file moved or deleted meanwhile (log rotation) is noticed
 * within a second, and a new one is opened at the path.
 */
export class AuditLog {
  private pending: string[] = [];
  private writing: Promise<void> | undefined;
  private handle: FileHandle | undefined;
  private checkedAt = 0;
  private warned = false;

  constructor(
    readonly file: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly redactor: Redactor = new DefaultRedactor(),
  ) {}

  record(record: AuditRecord): void {
    this.pending.push(`${JSON.stringify(this.redactor.redactValue(record))}\n`);
    this.writing ??= this.drain();
  }

  /** Resolves once every record so far is written (or its write has failed). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Write what is pending, then close the file. */
  async close(): Promise<void> {
    await this.flush();
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.join("");
        this.pending = [];
        try {
          await (await this.open()).write(batch);
        } catch (error) {
          if (!this.warned) {
            this.warned = true;
            this.onError(error);
          }
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async open(): Promise<FileHandle> {
    const now = Date.now();
    if (this.handle && now - this.checkedAt < REOPEN_CHECK_MS) return this.handle;
    this.checkedAt = now;
    if (this.handle) {
      const [onDisk, opened] = await Promise.all([
        stat(this.file).catch(() => undefined),
        this.handle.stat(),
      ]);
      if (onDisk && onDisk.ino === opened.ino && onDisk.dev === opened.dev) return this.handle;
      await this.handle.close().catch(() => undefined);
      this.handle = undefined;
    }
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    this.handle = await open(this.file, "a", 0o600);
    return this.handle;
  }
}
