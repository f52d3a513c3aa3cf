import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import os from "node:os";
import {
  type InstructionFileName,
  type InstructionScope,
  instructionFileCandidates,
  repositoryRoot,
} from "./instruction-files.js";
import { findImports } from "./instruction-imports.js";
import { InstructionPlaces, realFile } from "./instruction-paths.js";

/** How many imports deep a chain may go: Claude Code's limit of five hops. */
export const MAX_IMPORT_DEPTH = 5;
/** What is read of one file; the system prompt's budget cuts long before this. */
export const MAX_INSTRUCTION_FILE_BYTES = 256 * 1024;

/** One instruction file as read, with how it was reached. */
export interface LoadedInstructionFile {
  /** Absolute path as reached (links not followed). */
  path: string;
  /** The path as a person reads it: relative to the repository's root, or `~/…` in the home. */
  display: string;
  /** The scope of the file found by its name that this one is, or was imported through. */
  scope: InstructionScope;
  /** For a file found by its name: which one it is. */
  name?: InstructionFileName | undefined;
  /** For an imported file: the file (absolute, and as displayed) and line that imported it. */
  importedBy?: { path: string; display: string; line: number } | undefined;
  /** 0 for a file found by its name, 1 for what it imports, and so on. */
  depth: number;
  content: string;
  /** Bytes of the file past {@link MAX_INSTRUCTION_FILE_BYTES}, not read. */
  unreadBytes: number;
}

/** Why a file was not read (or not whole). Each names the file and, for an import, its line. */
export type InstructionProblemKind =
  /** An import (or a linked file) outside the repository and the user's home. */
  | "outside"
  /** A repository's file leads into the user's home: not read without the user's consent. */
  | "needs_consent"
  /** An import of a file already on the chain that imports it. */
  | "cycle"
  /** An import past {@link MAX_IMPORT_DEPTH}. */
  | "too_deep"
  /** An import of a file that does not exist (only for references that look like paths). */
  | "missing"
  | "not_a_file"
  | "not_text"
  | "unreadable"
  /** Read only up to {@link MAX_INSTRUCTION_FILE_BYTES}. */
  | "too_large";

export interface InstructionProblem {
  kind: InstructionProblemKind;
  /** The file the problem is in: the importing file for an import. */
  file: string;
  line?: number | undefined;
  /** The file it is about (an import's target), absolute. */
  target?: string | undefined;
  message: string;
}

/** A repository's file that would have the user's own file read (and sent to the model). */
export interface HomeReadRequest {
  /** The home file, its real path. */
  target: string;
  /** The same, as a person reads it (`~/notes/style.md`). */
  targetDisplay: string;
  /** The repository's file that leads there, and its import's line (none for a link). */
  from: string;
  line?: number | undefined;
}

export interface InstructionLoadOptions {
  /** Default `os.homedir()`. */
  homeDir?: string | undefined;
  /**
   * Whether a repository's file may have a file of the user's home read. Default: never. The
   * user's own files may import from their home without asking.
   */
  homeRead?: ((request: HomeReadRequest) => boolean) | undefined;
}

export interface InstructionLoad {
  /** The repository's root (or the workspace, outside a repository). */
  root: string;
  /** Every file read, in the order the model reads them: each import right after its importer. */
  files: LoadedInstructionFile[];
  problems: InstructionProblem[];
}

/** A file on the way: where it is, whose it is, and the chain of files that led to it. */
interface Visit {
  path: string;
  real: string;
  scope: InstructionScope;
  name?: InstructionFileName;
  importedBy?: { path: string; display: string; line: number };
  depth: number;
  /** The user's own file (found in their `~/.claude`, or reached from one inside their home). */
  trusted: boolean;
  chain: ReadonlyArray<{ path: string; real: string }>;
}

/**
 * Read a workspace's instruction files as Claude Code does: the user's `~/.claude/CLAUDE.md`,
 * then `CLAUDE.md`, `.claude/CLAUDE.md`, `AGENTS.md` and `CLAUDE.local.md` of each directory
 * from the repository's root down to the workspace, each followed by what it imports with
 * `@path`. A file is read once, where it is first reached: a `CLAUDE.md` that imports
 * `AGENTS.md` (the usual way to share one file between tools) does not bring it twice.
 * Nothing throws: every file left out is a problem naming it.
 */
export function loadInstructionFiles(
  workspace: string,
  options: InstructionLoadOptions = {},
): InstructionLoad {
  const homeDir = options.homeDir ?? os.homedir();
  const root = repositoryRoot(workspace);
  const walk = new InstructionWalk(
    new InstructionPlaces(root, homeDir),
    options.homeRead ?? (() => false),
  );
  for (const candidate of instructionFileCandidates(workspace, homeDir)) {
    const real = realFile(candidate.path);
    // A missing file is the usual case, not a problem; a folder of that name is no file.
    if (!real || !isFile(real)) continue;
    walk.start({
      path: candidate.path,
      real,
      scope: candidate.scope,
      name: candidate.name,
      depth: 0,
      trusted: candidate.scope === "user",
      chain: [],
    });
  }
  return { root, files: walk.files, problems: walk.problems };
}

class InstructionWalk {
  readonly files: LoadedInstructionFile[] = [];
  readonly problems: InstructionProblem[] = [];
  /** Real paths read already. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly places: InstructionPlaces,
    private readonly homeRead: (request: HomeReadRequest) => boolean,
  ) {}

  /** A file found by its name. A repository's may be a link: where it leads is checked too. */
  start(visit: Visit): void {
    if (this.seen.has(visit.real)) return;
    if (!visit.trusted && !this.mayReach(visit.real, visit.path)) return;
    this.read(visit);
  }

  private read(visit: Visit): void {
    const text = readText(visit.real);
    const file = this.places.display(visit.path);
    if (text.kind !== "ok") {
      const message =
        text.kind === "not_text"
          ? `${file} is not text (it holds NUL bytes): not read.`
          : `${file} cannot be read: ${text.reason}`;
      this.problems.push({ kind: text.kind, file: visit.path, message });
      return;
    }
    this.seen.add(visit.real);
    if (text.unreadBytes > 0)
      this.problems.push({
        kind: "too_large",
        file: visit.path,
        message: `${file} is over ${MAX_INSTRUCTION_FILE_BYTES} bytes: only its first ${MAX_INSTRUCTION_FILE_BYTES} are read.`,
      });
    this.files.push({
      path: visit.path,
      display: file,
      scope: visit.scope,
      ...(visit.name ? { name: visit.name } : {}),
      ...(visit.importedBy ? { importedBy: visit.importedBy } : {}),
      depth: visit.depth,
      content: text.content,
      unreadBytes: text.unreadBytes,
    });
    for (const reference of findImports(text.content))
      this.follow(visit, reference.path, reference.line);
  }

  private follow(from: Visit, written: string, line: number): void {
    const target = this.places.resolve(written, from.path);
    const real = realFile(target);
    const where = `${this.places.display(from.path)} line ${line} imports ${written}`;
    const problem = (kind: InstructionProblemKind, why: string) =>
      this.problems.push({ kind, file: from.path, line, target, message: `${where}${why}` });
    if (!real) {
      // `@scope/package` and `@name` in prose are no imports: only what looks like a path is.
      if (looksLikePath(written)) problem("missing", ", which does not exist.");
      return;
    }
    const chain = [...from.chain, { path: from.path, real: from.real }];
    if (chain.some((step) => step.real === real)) {
      const loop = [...chain.map((step) => this.places.display(step.path)), written].join(" → ");
      problem("cycle", `, which is already on the chain of imports (${loop}): a cycle, refused.`);
      return;
    }
    if (this.seen.has(real)) return;
    if (!isFile(real)) {
      problem("not_a_file", ", which is not a file.");
      return;
    }
    if (from.depth + 1 > MAX_IMPORT_DEPTH) {
      problem(
        "too_deep",
        `: more than ${MAX_IMPORT_DEPTH} imports deep (Claude Code's limit), so it is not read.`,
      );
      return;
    }
    if (!from.trusted && !this.mayReach(real, from.path, { line, written })) return;
    if (from.trusted && this.places.reach(real) === "outside") {
      problem("outside", `, which is outside the repository and your home: refused.`);
      return;
    }
    this.read({
      path: target,
      real,
      scope: from.scope,
      importedBy: { path: from.path, display: this.places.display(from.path), line },
      depth: from.depth + 1,
      // The user's home is the user's: a file there that they approved or imported is theirs.
      trusted: this.places.reach(real) === "home",
      chain,
    });
  }

  /** Whether a repository's file may have `real` read, with a problem when it may not. */
  private mayReach(
    real: string,
    from: string,
    reference?: { line: number; written: string },
  ): boolean {
    const reach = this.places.reach(real);
    if (reach === "repository") return true;
    const shown = this.places.display(real);
    const line = reference?.line;
    const where = !reference
      ? `${this.places.display(from)} is a link to ${real}`
      : `${this.places.display(from)} line ${reference.line} imports ${reference.written}${reference.written === shown ? "" : ` (${shown})`}`;
    if (reach === "outside") {
      this.problems.push({
        kind: "outside",
        file: from,
        line,
        target: real,
        message: `${where}, which is outside the repository and your home: refused.`,
      });
      return false;
    }
    const request = { target: real, targetDisplay: shown, from, line };
    if (this.homeRead(request)) return true;
    this.problems.push({
      kind: "needs_consent",
      file: from,
      line,
      target: real,
      message: `${where}, a file of your home outside the repository: a repository's file may have it read only with your consent.`,
    });
    return false;
  }
}

type ReadText =
  | { kind: "ok"; content: string; unreadBytes: number }
  | { kind: "not_text" }
  | { kind: "unreadable"; reason: string };

function readText(file: string): ReadText {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, MAX_INSTRUCTION_FILE_BYTES));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, read);
    if (bytes.includes(0)) return { kind: "not_text" };
    const content = bytes.toString("utf8").replace(/^\uFEFF/, "");
    return { kind: "ok", content, unreadBytes: Math.max(0, size - read) };
  } catch (error) {
    return { kind: "unreadable", reason: (error as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isFile(real: string): boolean {
  try {
    return statSync(real).isFile();
  } catch {
    return false;
  }
}

/** A reference written as a path (`./x`, `~/x`, `/x`, `x.md`), not a name (`@types/node`). */
function looksLikePath(written: string): boolean {
  return /^(?:\.{1,2}\/|~\/|\/)/.test(written) || /\.[A-Za-z0-9]+$/.test(written);
}
