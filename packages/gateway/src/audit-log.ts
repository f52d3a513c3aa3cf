import { appendFile, mkdir } from "node:fs/promises";
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

/**
 * Appends audit records as JSON lines, in order, secrets redacted (values under secret-looking
 * keys, and known token shapes). A write that fails is reported once and never fails a call.
 */
export class AuditLog {
  private chain: Promise<void> = Promise.resolve();
  private ready: Promise<void> | undefined;
  private warned = false;

  constructor(
    readonly file: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly redactor: Redactor = new DefaultRedactor(),
  ) {}

  record(record: AuditRecord): void {
    const line = `${JSON.stringify(this.redactor.redactValue(record))}\n`;
    this.ready ??= mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 }).then(
      () => undefined,
    );
    this.chain = this.chain
      .then(() => this.ready)
      .then(() => appendFile(this.file, line, { mode: 0o600 }))
      .catch((error: unknown) => {
        if (this.warned) return;
        this.warned = true;
        this.onError(error);
      });
  }

  /** Resolves once every record so far is written. */
  flush(): Promise<void> {
    return this.chain;
  }
}
