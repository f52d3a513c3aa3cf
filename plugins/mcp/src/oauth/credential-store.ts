import os from "node:os";
import path from "node:path";
import { ConfigError } from "@pseudoclaude/core";
import { JsonStateFile } from "@pseudoclaude/core/files";
import { CONFIG_DIR, isPlainObject } from "@pseudoclaude/core/plugin";

/** What is kept for one server: its client registration, its tokens, what discovery found. */
export interface ServerCredentials {
  /** The registered (or pre-registered) client: `client_id`, maybe `client_secret`. */
  client?: Record<string, unknown>;
  /** The token response, with `obtained_at` (ms) so expiry can be computed. */
  tokens?: Record<string, unknown> & { obtained_at?: number };
  /** Discovery results (resource and authorization server metadata), to skip it next time. */
  discovery?: Record<string, unknown>;
  /** The DPoP key the tokens are bound to, where the authorization server binds them. */
  dpop?: Record<string, unknown>;
}

/** Where OAuth credentials are kept: per server URL, in the user's own directory. */
export interface CredentialStore {
  get(serverUrl: string): ServerCredentials;
  update(serverUrl: string, change: (current: ServerCredentials) => ServerCredentials): void;
  /** Forget a server's credentials; false when there were none. */
  delete(serverUrl: string): boolean;
}

interface CredentialsFile {
  version: 1;
  servers: Record<string, ServerCredentials>;
}

/** `~/.PseudoClaude/oauth-credentials.json`. */
export function defaultCredentialsFile(homeDir: string = os.homedir()): string {
  return path.join(homeDir, CONFIG_DIR, "oauth-credentials.json");
}

/**
 * Credentials in one JSON file only the user can read and write: a `JsonStateFile` of the
 * kernel (whole, atomic, mode 0600), so a crash never leaves half a file and no other user
 * ever sees a token. Never in the workspace. A file that cannot be read is not overwritten.
 */
export class FileCredentialStore implements CredentialStore {
  private readonly state: JsonStateFile<CredentialsFile>;

  constructor(readonly file: string = defaultCredentialsFile()) {
    this.state = new JsonStateFile(
      file,
      (data): data is CredentialsFile =>
        isPlainObject(data) && data.version === 1 && isPlainObject(data.servers),
      () => ({ version: 1, servers: {} }),
      '{"version": 1, "servers": {...}}',
    );
  }

  get(serverUrl: string): ServerCredentials {
    const read = this.state.read();
    return read.ok ? (read.data.servers[serverUrl] ?? {}) : {};
  }

  update(serverUrl: string, change: (current: ServerCredentials) => ServerCredentials): void {
    const read = this.state.read();
    if (!read.ok) {
      throw new ConfigError(
        "config_invalid",
        `Cannot use the OAuth credentials file ${this.file} (${read.why}); it is left as it is. Fix or remove it, then log in again.`,
        { details: { file: this.file } },
      );
    }
    read.data.servers[serverUrl] = change(read.data.servers[serverUrl] ?? {});
    this.state.write(read.data);
  }

  delete(serverUrl: string): boolean {
    const read = this.state.read();
    if (!read.ok || !(serverUrl in read.data.servers)) return false;
    delete read.data.servers[serverUrl];
    this.state.write(read.data);
    return true;
  }
}

/** Credentials kept in memory only: for a conformance run, tests, or an agent that logs in each time. */
export class MemoryCredentialStore implements CredentialStore {
  private readonly servers = new Map<string, ServerCredentials>();

  get(serverUrl: string): ServerCredentials {
    return this.servers.get(serverUrl) ?? {};
  }

  update(serverUrl: string, change: (current: ServerCredentials) => ServerCredentials): void {
    this.servers.set(serverUrl, change(this.get(serverUrl)));
  }

  delete(serverUrl: string): boolean {
    return this.servers.delete(serverUrl);
  }
}

let shared: CredentialStore | undefined;
/** The store servers use when the plugin was given none: one `FileCredentialStore` per process. */
export function defaultCredentialStore(): CredentialStore {
  shared ??= new FileCredentialStore();
  return shared;
}

/**
 * The `Authorization` header of the token stored for a server while it is within its lifetime,
 * or undefined (none, expired, or bound to a DPoP key, which a plain header cannot present).
 */
export function storedAuthorization(store: CredentialStore, serverUrl: string): string | undefined {
  const tokens = store.get(serverUrl).tokens;
  const token = tokens?.access_token;
  if (typeof token !== "string" || !tokens) return undefined;
  const { expires_in: expiresIn, obtained_at: obtainedAt, token_type: type } = tokens;
  if (typeof expiresIn === "number" && typeof obtainedAt === "number")
    if (Date.now() >= obtainedAt + expiresIn * 1000) return undefined;
  if (typeof type === "string" && type.toLowerCase() === "dpop") return undefined;
  return `Bearer ${token}`;
}
