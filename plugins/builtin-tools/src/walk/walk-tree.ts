import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { openConfinedFolder, type PathGuard } from "@pseudoclaude/core/files";
import { IgnoreStack } from "./ignore-stack.js";

/** A file (or link, or special file) met on a walk. Directories are entered, not yielded. */
export interface WalkEntry {
  absolute: string;
  /** Relative to the walk's start, with `/` separators. */
  relative: string;
  kind: "file" | "symlink" | "other";
}

export interface WalkOptions {
  /** Real absolute directory to walk. */
  start: string;
  /** The confining root that holds `start`: `.gitignore` files from there down apply. */
  root: string;
  respectGitignore: boolean;
  signal?: AbortSignal;
  /**
   * Each folder is opened and verified inside a root before it is listed, so a folder swapped
   * for a link to somewhere else after the walk met it is not listed (it is skipped).
   */
  guard?: Pick<PathGuard, "rootOf">;
}

/** Never walked, whatever the ignore files say. */
const ALWAYS_SKIPPED = new Set([".git"]);

/**
 * Walk a tree depth-first in name order (so results are the same on every run), skipping
 * `.git`, ignored paths and symbolic links to directories (a link never leads a walk out of
 * its root, and cycles cannot happen). A consumer that stops early stops the walk.
 */
export async function* walkTree(options: WalkOptions): AsyncGenerator<WalkEntry> {
  let stack = IgnoreStack.empty();
  if (options.respectGitignore) {
    for (const directory of ancestorsFrom(options.root, options.start)) {
      stack = await stack.enter(directory);
    }
  }
  yield* walkDirectory(options.start, "", stack, options);
}

async function* walkDirectory(
  directory: string,
  relative: string,
  inherited: IgnoreStack,
  options: WalkOptions,
): AsyncGenerator<WalkEntry> {
  options.signal?.throwIfAborted();
  let entries: Dirent[];
  try {
    entries = await listFolder(directory, options.guard);
  } catch {
    return; // Unreadable or gone meanwhile: nothing to find there.
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const stack =
    options.respectGitignore && relative !== ""
      ? await inherited.enter(
          directory,
          entries.some((entry) => entry.name === ".gitignore"),
        )
      : inherited;
  for (const entry of entries) {
    const absolute = path.join(directory, entry.name);
    const childRelative = relative === "" ? entry.name : `${relative}/${entry.name}`;
    const isDirectory = entry.isDirectory();
    if (isDirectory && ALWAYS_SKIPPED.has(entry.name)) continue;
    if (options.respectGitignore && stack.ignores(absolute, isDirectory)) continue;
    if (isDirectory) {
      yield* walkDirectory(absolute, childRelative, stack, options);
    } else {
      const kind = entry.isFile() ? "file" : entry.isSymbolicLink() ? "symlink" : "other";
      yield { absolute, relative: childRelative, kind };
    }
  }
}

async function listFolder(directory: string, guard: WalkOptions["guard"]): Promise<Dirent[]> {
  if (!guard) return readdir(directory, { withFileTypes: true });
  const folder = await openConfinedFolder(guard, directory);
  try {
    return await readdir(folder.entry(""), { withFileTypes: true });
  } finally {
    await folder.close();
  }
}

/** `root`, then each directory down to and including `start`. */
function ancestorsFrom(root: string, start: string): string[] {
  const chain = [root];
  const relative = path.relative(root, start);
  if (relative === "" || relative.startsWith("..")) return chain;
  let current = root;
  for (const part of relative.split(path.sep)) {
    current = path.join(current, part);
    chain.push(current);
  }
  return chain;
}
