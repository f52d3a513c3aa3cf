import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

export type JsonStateRead<T> = { ok: true; data: T } | { ok: false; why: string };

/**
 * A small JSON file of the user's own state (approvals, OAuth credentials): read whole,
 * written whole to a temporary file only the user can read (mode 0600) and renamed, so a
 * crash never leaves half a file and no other user ever sees its content. A missing file
 * reads as `empty()`; one that does not parse or has another shape reads as not ok, and the
 * owner should then refuse to write rather than overwrite what it could not understand.
 *
 * Reads are asked for often (OAuth tokens: on every HTTP request the MCP SDK sends), so the
 * text is kept while the file's identity (inode, size, modification time) is unchanged: a stat
 * instead of a read, and a missing file costs no exception. Each read parses the text again,
 * so callers may change what they get. A change by another process is seen at the next read.
 */
export class JsonStateFile<T> {
  private cached: { identity: string; text: string } | undefined;

  constructor(
    readonly file: string,
    private readonly accepts: (data: unknown) => data is T,
    private readonly empty: () => T,
    /** The shape it expects, for the message when the file has another. */
    private readonly shape: string,
  ) {}

  read(): JsonStateRead<T> {
    let identity: string;
    try {
      const stat = statSync(this.file, { bigint: true, throwIfNoEntry: false });
      if (!stat) {
        this.cached = undefined;
        return { ok: true, data: this.empty() };
      }
      identity = `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
    } catch (error) {
      return { ok: false, why: (error as Error).message };
    }
    let text: string;
    if (this.cached?.identity === identity) text = this.cached.text;
    else {
      try {
        text = readFileSync(this.file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT")
          return { ok: true, data: this.empty() };
        return { ok: false, why: (error as Error).message };
      }
      this.cached = { identity, text };
    }
    try {
      const data: unknown = JSON.parse(text);
      return this.accepts(data)
        ? { ok: true, data }
        : { ok: false, why: `it is not ${this.shape}` };
    } catch (error) {
      return { ok: false, why: (error as Error).message };
    }
  }

  write(data: T): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const fd = openSync(temporary, "wx", 0o600);
    try {
      // The mode of a new file is masked by the umask; make sure before it becomes visible.
      fchmodSync(fd, 0o600);
      writeFileSync(fd, `${JSON.stringify(data, null, 2)}\n`);
      // On disk before the rename, so a power cut after it cannot leave an empty file.
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.file);
  }
}
