import { constants, existsSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { PathGuard } from "./path-guard.js";

/**
 * A guard checks a path, then the tool opens it: between the two a folder on the path can be
 * swapped for a symbolic link to somewhere else, and an open by name would follow it. So what
 * was opened is verified through its descriptor, and files are made inside a folder that was
 * opened and verified first, reached through that folder's descriptor rather than its name.
 *
 * On Linux `/proc/self/fd/N` names what a descriptor really is, and a path through it resolves
 * to the opened folder itself (what `openat` does in C). Elsewhere an opened file is compared
 * by device and inode with what its real path leads to now, which catches a swap that is still
 * in place; a swap undone in the few microseconds between open and check is not caught there.
 */
const PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd") ? "/proc/self/fd" : "";

/** A swap between the check and the open was found: the open leads outside every root. */
export class PathSwappedError extends Error {
  constructor(readonly shown: string) {
    super(
      `${shown} changed while it was opened (a folder on its path was replaced by a link); nothing was read or written.`,
    );
    this.name = "PathSwappedError";
  }
}

/** What a descriptor really is: its path, or undefined where the system cannot say. */
async function descriptorPath(handle: FileHandle): Promise<string | undefined> {
  if (!PROC_FD) return undefined;
  const target = await readlink(`${PROC_FD}/${handle.fd}`);
  return target.endsWith(" (deleted)") ? target.slice(0, -" (deleted)".length) : target;
}

/** Throws {@link PathSwappedError} unless `handle` is `real` (or at least inside a root). */
async function verify(
  guard: Pick<PathGuard, "rootOf">,
  handle: FileHandle,
  real: string,
  shown: string,
): Promise<void> {
  const opened = await descriptorPath(handle);
  if (opened !== undefined) {
    if (guard.rootOf(opened) === undefined) throw new PathSwappedError(shown);
    return;
  }
  const now = await realpath(real).catch(() => undefined);
  if (now === undefined || guard.rootOf(now) === undefined) throw new PathSwappedError(shown);
  const [was, is] = await Promise.all([handle.stat(), stat(now)]);
  if (was.dev !== is.dev || was.ino !== is.ino) throw new PathSwappedError(shown);
}

/** Open without following a link on the last part, then verify the descriptor. */
async function openVerified(
  guard: Pick<PathGuard, "rootOf">,
  real: string,
  shown: string,
  flags: number,
): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(real, flags | constants.O_NOFOLLOW);
  } catch (error) {
    // A link as the last part fails as ELOOP, or as ENOTDIR with O_DIRECTORY (Linux).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new PathSwappedError(shown);
    if (code === "ENOTDIR" && (await lstat(real).catch(() => undefined))?.isSymbolicLink())
      throw new PathSwappedError(shown);
    throw error;
  }
  try {
    await verify(guard, handle, real, shown);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Open a checked path for reading, without following a link on its last part (a checked real
 * path has none, so one there was swapped in), and verify that what was opened is inside a
 * root. The caller closes the handle.
 */
export function openConfined(
  guard: Pick<PathGuard, "rootOf">,
  real: string,
  shown: string = real,
): Promise<FileHandle> {
  return openVerified(guard, real, shown, constants.O_RDONLY);
}

/**
 * A folder opened and verified inside a root. {@link ConfinedFolder.entry} names a file in it
 * through the folder's descriptor (on Linux), so swapping the folder for a link afterwards
 * cannot send a create, a rename or a listing anywhere else.
 */
export interface ConfinedFolder {
  /** A path to `name` inside this folder; `""` is the folder itself. */
  entry(name: string): string;
  /** Flush the folder's entries (a rename's durability), best effort. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export async function openConfinedFolder(
  guard: Pick<PathGuard, "rootOf">,
  real: string,
  shown: string = real,
): Promise<ConfinedFolder> {
  const handle = await openVerified(guard, real, shown, constants.O_RDONLY | constants.O_DIRECTORY);
  const base = PROC_FD ? `${PROC_FD}/${handle.fd}` : real;
  return {
    entry: (name) => (name === "" ? base : path.join(base, name)),
    sync: () => handle.sync().catch(() => undefined),
    close: () => handle.close(),
  };
}

/**
 * `real` as a confined folder, made first with its missing parents. Each missing folder is
 * made through its parent's verified descriptor, so a swap on the way cannot make one outside.
 */
export async function makeConfinedFolder(
  guard: Pick<PathGuard, "rootOf">,
  real: string,
  shown: string = real,
): Promise<ConfinedFolder> {
  const missing: string[] = [];
  let existing = real;
  while (!existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    missing.unshift(path.basename(existing));
    existing = parent;
  }
  let folder = await openConfinedFolder(guard, existing, shown);
  let at = existing;
  for (const name of missing) {
    at = path.join(at, name);
    try {
      await mkdir(folder.entry(name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      });
      const next = await openConfinedFolder(guard, PROC_FD ? folder.entry(name) : at, shown);
      await folder.close();
      folder = next;
    } catch (error) {
      await folder.close();
      throw error;
    }
  }
  return folder;
}
