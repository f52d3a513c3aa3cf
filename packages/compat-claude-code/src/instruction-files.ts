import { statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Whose an instruction file is: the user's own (`~/.claude/CLAUDE.md`), the project's shared
 * ones (`CLAUDE.md`, `.claude/CLAUDE.md`, `AGENTS.md`, committed), or the project's local one
 * (`CLAUDE.local.md`, personal by convention but still in the workspace, so a repository can
 * carry it as easily as the shared ones).
 */
export type InstructionScope = "user" | "project" | "local";

/** One place an instruction file may be, in the order the model reads them. */
export interface InstructionFileCandidate {
  scope: InstructionScope;
  /** Absolute path; the file may not exist. */
  path: string;
  /** The file's name as its format knows it: `CLAUDE.md`, `.claude/CLAUDE.md`, `AGENTS.md`. */
  name: InstructionFileName;
}

export type InstructionFileName =
  | "CLAUDE.md"
  | ".claude/CLAUDE.md"
  | "CLAUDE.local.md"
  | "AGENTS.md";

/**
 * The files of one directory, shared ones first and the personal one last: Claude Code reads a
 * directory's `CLAUDE.md` and `.claude/CLAUDE.md` before its `CLAUDE.local.md`, so what a person
 * keeps for themselves comes after (and weighs over) what the team wrote. `AGENTS.md`, the
 * cross-tool file Claude Code does not read itself, is the team's too: it sits with them.
 */
const PER_DIRECTORY: ReadonlyArray<{ name: InstructionFileName; scope: InstructionScope }> = [
  { name: "CLAUDE.md", scope: "project" },
  { name: ".claude/CLAUDE.md", scope: "project" },
  { name: "AGENTS.md", scope: "project" },
  { name: "CLAUDE.local.md", scope: "local" },
];

/**
 * The repository a workspace is in: the nearest directory at or above it holding `.git` (a
 * folder, or a file for a worktree or submodule), else the workspace itself. Instruction files
 * are looked for from here down, and imports may not leave it (or the user's home).
 */
export function repositoryRoot(workspace: string): string {
  const start = path.resolve(workspace);
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (exists(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return start;
  }
}

/**
 * Every place an instruction file may be, in reading order: the user's `~/.claude/CLAUDE.md`,
 * then each directory from the repository's root down to the workspace (the nearest last, as
 * Claude Code and the AGENTS.md convention order them: the closer a file is to the work, the
 * later it comes and the more it weighs).
 */
export function instructionFileCandidates(
  workspace: string,
  homeDir: string = os.homedir(),
): InstructionFileCandidate[] {
  const candidates: InstructionFileCandidate[] = [
    { scope: "user", name: "CLAUDE.md", path: path.join(homeDir, ".claude", "CLAUDE.md") },
  ];
  for (const dir of directoriesDown(repositoryRoot(workspace), path.resolve(workspace)))
    for (const file of PER_DIRECTORY)
      candidates.push({ scope: file.scope, name: file.name, path: path.join(dir, file.name) });
  return candidates;
}

/** `root`, then each directory below it on the way to `leaf` (`leaf` included). */
function directoriesDown(root: string, leaf: string): string[] {
  const dirs: string[] = [];
  for (let dir = leaf; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || path.dirname(dir) === dir) break;
  }
  return dirs;
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
