import { realpathSync } from "node:fs";
import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";

/** Where a path really leads, and whether something is there now. */
export interface RealPath {
  real: string;
  exists: boolean;
}

const MAX_LINKS = 40;

/**
 * The real location of `absolute`, with every symbolic link resolved - also for a path that
 * does not exist yet (its nearest existing parent is resolved) and for a dangling link (its
 * target is followed). A write goes where this says, so a link cannot smuggle it elsewhere.
 */
export async function resolveRealPath(absolute: string, links = 0): Promise<RealPath> {
  try {
    return { real: await realpath(absolute), exists: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return { real: absolute, exists: false };
  const parentReal = (await resolveRealPath(parent, links)).real;
  const here = path.join(parentReal, path.basename(absolute));
  const info = await lstat(here).catch(() => undefined);
  if (info?.isSymbolicLink()) {
    if (links >= MAX_LINKS) throw new Error(`Too many levels of symbolic links at ${absolute}.`);
    const target = path.resolve(parentReal, await readlink(here));
    return { real: (await resolveRealPath(target, links + 1)).real, exists: false };
  }
  return { real: here, exists: false };
}

/**
 * The real path of a folder such as the workspace, or the path as given when it cannot be
 * resolved. Symbolic links in the workspace path itself (macOS `/tmp`) must not make paths
 * inside it look like an escape.
 */
export function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}
