import { createHash } from "node:crypto";
import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { CONFIG_DIR } from "../config/load-config.js";
import { consentWorkspaceKey } from "../consent/default-consent.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import {
  checkSessionId,
  type LoadedSession,
  newestFirst,
  type SessionEntry,
  type SessionStore,
  type SessionSummary,
  summarizeSession,
} from "./session-store.js";

/** Where a workspace's sessions live: `~/.PseudoClaude/sessions/<name>-<hash of its real path>/`. */
export function sessionFolder(workspace: string, homeDir: string = os.homedir()): string {
  const real = consentWorkspaceKey(workspace);
  const name =
    path
      .basename(real)
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .slice(0, 40) || "root";
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 12);
  return path.join(homeDir, CONFIG_DIR, "sessions", `${name}-${hash}`);
}

/**
 * Sessions as append-only JSONL files, one per session, in the user's own directory (never
 * the workspace: a session holds tool output), folders 0700 and files 0600. Each append is one
 * write of whole lines followed by fsync, so a crash leaves every earlier line intact; a torn
 * last line (the process died mid-write) is dropped on load with a warning, and the next
 * append starts on a line of its own.
 */
export class FileSessionStore implements SessionStore {
  readonly folder: string;

  constructor(options: { workspace: string; homeDir?: string; folder?: string }) {
    this.folder = options.folder ?? sessionFolder(options.workspace, options.homeDir);
  }

  fileOf(sessionId: string): string {
    checkSessionId(sessionId);
    return path.join(this.folder, `${sessionId}.jsonl`);
  }

  async append(sessionId: string, entries: readonly SessionEntry[]): Promise<void> {
    const file = this.fileOf(sessionId);
    if (entries.length === 0) return;
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    let text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");
    const fd = openSync(file, "a+", 0o600);
    try {
      // After a torn line, start a new one: the torn line stays one bad line, not two.
      if (!endsWithNewline(fd)) text = `\n${text}`;
      // writeFileSync writes until all is written; one writeSync may write only part of it.
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  async load(sessionId: string): Promise<LoadedSession | undefined> {
    const file = this.fileOf(sessionId);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    return { id: sessionId, ...parseLog(text, file) };
  }

  async list(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = readdirSync(this.folder).filter((name) => name.endsWith(".jsonl"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const summaries: SessionSummary[] = [];
    for (const name of names) {
      const id = name.slice(0, -".jsonl".length);
      const loaded = await this.load(id).catch(() => undefined);
      if (loaded) summaries.push(summarizeSession(id, loaded.entries));
    }
    return summaries.sort(newestFirst);
  }

  async delete(sessionId: string): Promise<boolean> {
    const file = this.fileOf(sessionId);
    try {
      rmSync(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }
}

function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** Every line that parses as an entry; a line that does not is skipped and reported. */
function parseLog(
  text: string,
  file: string,
): { entries: SessionEntry[]; diagnostics: Diagnostic[] } {
  const entries: SessionEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const lines = text.split("\n");
  const lastIndex = text.endsWith("\n") ? lines.length - 2 : lines.length - 1;
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      entry = undefined;
    }
    if (isEntry(entry)) {
      entries.push(entry);
      return;
    }
    const torn = index === lastIndex && !text.endsWith("\n");
    diagnostics.push({
      stage: "session",
      severity: "warning",
      code: torn ? "session_torn_line" : "session_bad_line",
      file,
      line: index + 1,
      message: torn
        ? `The last line of session ${path.basename(file)} was cut off (the process ended while writing it); it was dropped, every earlier turn is kept.`
        : `Line ${index + 1} of session ${path.basename(file)} is not a session entry; it was skipped.`,
    });
  });
  return { entries, diagnostics };
}

function isEntry(value: unknown): value is SessionEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as { type?: unknown; messages?: unknown; id?: unknown };
  switch (entry.type) {
    case "session":
      return typeof entry.id === "string";
    case "turn":
    case "compaction":
      return Array.isArray(entry.messages);
    case "clear":
      return true;
    case "task":
      return typeof (value as { taskId?: unknown }).taskId === "string";
    case "tools-found":
      return Array.isArray((value as { names?: unknown }).names);
    default:
      return false;
  }
}
