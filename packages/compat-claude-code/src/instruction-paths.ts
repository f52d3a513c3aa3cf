import { realpathSync } from "node:fs";
import path from "node:path";

/**
 * Where a file an instruction file leads to really is (links followed): in the repository, in
 * the user's home outside it, or elsewhere. Imports may reach the first two only.
 */
export type InstructionReach = "repository" | "home" | "outside";

/** The places imports are confined to, as real paths, and how to name a file in a message. */
export class InstructionPlaces {
  private readonly realRoot: string;
  private readonly realHome: string;

  constructor(
    readonly root: string,
    readonly homeDir: string,
  ) {
    this.realRoot = realOrSelf(root);
    this.realHome = realOrSelf(homeDir);
  }

  /** Where `realFile` (a real path) is. The repository wins when it lies in the home. */
  reach(realFile: string): InstructionReach {
    if (isInside(realFile, this.realRoot)) return "repository";
    if (isInside(realFile, this.realHome)) return "home";
    return "outside";
  }

  /**
   * An import's path as a file: `~/` is the user's home, an absolute path is itself, anything
   * else is relative to the importing file's folder (not the workspace), as in Claude Code.
   */
  resolve(importPath: string, importingFile: string): string {
    if (importPath.startsWith("~/")) return path.join(this.homeDir, importPath.slice(2));
    if (path.isAbsolute(importPath)) return path.normalize(importPath);
    return path.resolve(path.dirname(importingFile), importPath);
  }

  /** A file as a person reads it: relative to the repository, `~/` in the home, else absolute. */
  display(file: string): string {
    if (isInside(file, this.root)) return path.relative(this.root, file) || ".";
    if (isInside(file, this.homeDir)) return `~/${path.relative(this.homeDir, file)}`;
    return file;
  }
}

/** The file's real path (every link followed), or undefined when it does not exist. */
export function realFile(file: string): string | undefined {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}

function realOrSelf(dir: string): string {
  return realFile(dir) ?? path.resolve(dir);
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  const up = relative === ".." || relative.startsWith(`..${path.sep}`);
  return !up && !path.isAbsolute(relative);
}
