/**
 * Secrets must never reach diagnostics or logs. The redactor knows two kinds of secret:
 * values that were registered explicitly (expanded `${VAR}`s, values under credential names) and
 * shapes that look like credentials anywhere (bearer tokens, `sk-...` keys).
 */
export const REDACTED = "***";

/** Minimum length for a registered secret; shorter values would redact ordinary words. */
const MIN_SECRET_LENGTH = 4;

const SECRET_KEY =
  /authorization|token|secret|password|passwd|passphrase|api[_-]?key|(^|[_-])(key|pat|auth)$|cookie|credential|private[_-]?key/i;

/**
 * Whether a name (an env variable, a header, a config key) says its value is a credential:
 * `GITHUB_TOKEN`, `X-Api-Key`, `Authorization`, `DB_PASSWORD`, `STRIPE_KEY`, `accessKey`. The
 * one test of a secret's name, for registering values and for showing config alike; it is
 * narrow on purpose, because a value under a matching name is taken out of everything the
 * agent shows (`keymap`, `primary_key_id` are not credentials).
 */
export function isSecretName(name: string): boolean {
  // camelCase words are words too: `accessKey` is `access_Key`.
  return SECRET_KEY.test(name.replace(/([a-z0-9])([A-Z])/g, "$1_$2"));
}

const CREDENTIAL_SHAPES: RegExp[] = [
  /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{6,}/gi,
  /\b(sk|pk|rk|ghp|gho|ghs|xox[abpr])[-_][A-Za-z0-9_-]{8,}/g,
  /\b(api[_-]?key|token|secret|password|passwd|authorization)(["']?\s*[:=]\s*["']?)[^\s"',}]{4,}/gi,
];

export interface Redactor {
  /** Remember a value that must never be shown. */
  addSecret(value: string | undefined): void;
  /** Replace every known secret and credential-shaped text with `***`. */
  redact(text: string): string;
  /** Deep-redact strings inside plain data (objects, arrays). */
  redactValue<T>(value: T): T;
  /**
   * Replace only the registered secrets, not credential shapes: for what a tool returns, where
   * text that merely looks like a token (a code sample, a doc page) must stay as it is.
   */
  redactKnown?(text: string): string;
  /** How many secrets are registered: none means there is nothing to look for. */
  readonly knownCount?: number;
}

export class DefaultRedactor implements Redactor {
  private readonly secrets = new Set<string>();
  /** The secrets longest first, made on first use after a change. */
  private ordered: string[] | undefined;

  addSecret(value: string | undefined): void {
    if (value === undefined) return;
    const trimmed = value.trim();
    const before = this.secrets.size;
    if (trimmed.length >= MIN_SECRET_LENGTH) this.secrets.add(trimmed);
    // "Bearer abc" registers "abc" too, so the bare token is hidden wherever it appears.
    const parts = trimmed.split(/\s+/);
    if (parts.length > 1) {
      const last = parts[parts.length - 1] ?? "";
      if (last.length >= MIN_SECRET_LENGTH) this.secrets.add(last);
    }
    // The same secret comes again on every credential read (an OAuth token per HTTP request):
    // only a new one makes the sorted list stale.
    if (this.secrets.size !== before) this.ordered = undefined;
  }

  get knownCount(): number {
    return this.secrets.size;
  }

  redactKnown(text: string): string {
    // Longest first, so a secret containing another is hidden whole. Sorted once per change:
    // this runs on every tool result.
    this.ordered ??= [...this.secrets].sort((a, b) => b.length - a.length);
    let out = text;
    for (const secret of this.ordered)
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  redact(text: string): string {
    let out = this.redactKnown(text);
    out = out.replace(CREDENTIAL_SHAPES[0]!, (_m, scheme: string) => `${scheme} ${REDACTED}`);
    out = out.replace(CREDENTIAL_SHAPES[1]!, (_m, prefix: string) => `${prefix}-${REDACTED}`);
    out = out.replace(
      CREDENTIAL_SHAPES[2]!,
      (_m, key: string, separator: string) => `${key}${separator}${REDACTED}`,
    );
    return out;
  }

  redactValue<T>(value: T): T {
    if (typeof value === "string") return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.redactValue(item)) as T;
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        // A value under a secret-sounding key is hidden whole, whatever it looks like.
        out[key] =
          typeof item === "string" && isSecretName(key) ? REDACTED : this.redactValue(item);
      }
      return out as T;
    }
    return value;
  }
}
