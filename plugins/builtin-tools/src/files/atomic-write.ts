import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import {
  type ConfinedFolder,
  makeConfinedFolder,
  openConfinedFolder,
  type PathGuard,
} from "@pseudoclaude/core/files";

export interface AtomicWriteOptions {
  /**
   * Confine the write: the folder is opened and verified inside a root first, and the
   * temporary file is made and renamed through its descriptor, so a folder on the path swapped
   * for a link after the path was checked cannot send the write elsewhere.
   */
  guard?: Pick<PathGuard, "rootOf">;
  /** Make missing folders first (through their parents' descriptors when confined). */
  makeFolders?: boolean;
  /** How errors name the file. */
  shown?: string;
}

/**
 * Write a whole file so that a reader (or a crash) sees either the old content or the new,
 * never half of it: write a temporary file next to the target, flush it to disk, then rename
 * it over the target. The rename replaces a link at the target rather than following it. An
 * existing file keeps its permission bits.
 */
export async function writeFileAtomic(
  target: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const directory = path.dirname(target);
  const name = path.basename(target);
  const shown = options.shown ?? target;
  const folder: ConfinedFolder = options.guard
    ? options.makeFolders
      ? await makeConfinedFolder(options.guard, directory, shown)
      : await openConfinedFolder(options.guard, directory, shown)
    : await plainFolder(directory, options.makeFolders ?? false);
  try {
    const temporary = folder.entry(`.${name}.${randomBytes(6).toString("hex")}.tmp`);
    const mode = await stat(folder.entry(name)).then(
      (info) => info.mode & 0o7777,
      () => undefined,
    );
    try {
      const handle = await open(
        temporary,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        mode ?? 0o666,
      );
      try {
        await handle.writeFile(content);
        // open() applies the umask; an existing file's exact bits are restored here.
        if (mode !== undefined) await handle.chmod(mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, folder.entry(name));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    // Make the rename itself durable. Best effort: some file systems refuse to sync a folder.
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/** An unconfined folder, reached by its name. */
async function plainFolder(directory: string, make: boolean): Promise<ConfinedFolder> {
  if (make) await mkdir(directory, { recursive: true });
  return {
    entry: (name) => path.join(directory, name),
    sync: async () => {
      try {
        const handle = await open(directory, "r");
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      } catch {
        // Durability of the rename is a bonus; the content itself was already synced.
      }
    },
    close: async () => {},
  };
}
