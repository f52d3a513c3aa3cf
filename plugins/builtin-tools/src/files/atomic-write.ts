import { randomBytes } from "node:crypto";
import { chmod, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

/**
 * Write a whole file so that a reader (or a crash) sees either the old content or the new,
 * never half of it: write a temporary file next to the target, flush it to disk, then rename
 * it over the target. An existing file keeps its permission bits.
 */
export async function writeFileAtomic(target: string, content: string | Uint8Array): Promise<void> {
  const directory = path.dirname(target);
  const temporary = path.join(
    directory,
    `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`,
  );
  const mode = await stat(target).then(
    (info) => info.mode & 0o7777,
    () => undefined,
  );
  try {
    const handle = await open(temporary, "wx", mode ?? 0o666);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; an existing file's exact bits are restored here.
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/** Make the rename itself durable. Best effort: some file systems refuse to sync a directory. */
async function syncDirectory(directory: string): Promise<void> {
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
}
