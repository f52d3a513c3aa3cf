import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError } from "@pseudoclaude/core";
import { CONFIG_DIR, isPlainObject } from "@pseudoclaude/core/plugin";

/** What is kept for one server: its client registration, its tokens, what discovery found. */
export interface ServerCredentials {
  /** The registered (or pre-registered) client: `client_id`, maybe `client_secret`. */
  client?: Record<string, unknown>;
  /** The token response, with `obtained_at` (ms) so expiry can be computed. */
  tokens?: Record<string, unknown> & { obtained_at?: number };
  /** Discovery results (resource and authorization server metadata), to skip it next time. */
  discovery?: Record<string, unknown>;
}

/** Where OAuth credentials are kept: per server URL, in the user's own directory. */
export interface CredentialStore {
  get(serverUrl: string): ServerCredentials;
  update(serverUrl: string, change: (current: ServerCredentials) => ServerCredentials): void;
  /** Forget a server's credentials; false when there were none. */
  delete(serverUrl: string): boolean;
}

/** `~/.PseudoClaude/oauth-credentials.json`. */
export function defaultCredentialsFile(homeDir: string = os.homedir()): string {
  return path.join(homeDir, CONFIG_DIR, "oauth-credentials.json");
}

/**
 * Credentials in one JSON file only the user can read and write (mode 0600), written whole
 * to a temporary file and renamed, so a crash never leaves half a file and no other user
 * ever sees a token. Never in the workspace. A file that cannot be read is not overwritten.
 */
export class FileCredentialStore implements CredentialStore {
  constructor(readonly file: string = defaultCredentialsFile()) {}

  get(serverUrl: string): ServerCredentials {
    const read = this.read();
    return read.ok ? (read.servers[serverUrl] ?? {}) : {};
  }

  update(serverUrl: string, change: (current: ServerCredentials) => ServerCredentials): void {
    const read = this.read();
    if (!read.ok) {
      throw new ConfigError(
        "config_invalid",
        `Cannot use the OAuth credentials file ${this.file} (${read.why}); it is left as it is. Fix or remove it, then log in again.`,
        { details: { file: this.file } },
      );
    }
    read.servers[serverUrl] = change(read.servers[serverUrl] ?? {});
    this.write(read.servers);
  }

  delete(serverUrl: string): boolean {
    const read = this.read();
    if (!read.ok || !(serverUrl in read.servers)) return false;
    delete read.servers[serverUrl];
    this.write(read.servers);
    return true;
  }

  private read():
    | { ok: true; servers: Record<string, ServerCredentials> }
    | { ok: false; why: string } {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, servers: {} };
      return { ok: false, why: (error as Error).message };
    }
    try {
      const data: unknown = JSON.parse(text);
      if (isPlainObject(data) && data.version === 1 && isPlainObject(data.servers))
        return { ok: true, servers: data.servers as Record<string, ServerCredentials> };
      return { ok: false, why: 'it is not {"version": 1, "servers": {...}}' };
    } catch (error) {
      return { ok: false, why: (error as Error).message };
    }
  }

  private write(servers: Record<string, ServerCredentials>): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ version: 1, servers }, null, 2)}\n`, {
      mode: 0o600,
    });
    // The mode of a new file is masked by the umask; make sure before it becomes visible.
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.file);
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
