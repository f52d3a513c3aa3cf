import { cp, mkdir, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { starterManifest } from "./starter-manifest.js";

// The package's own package.json, by its name: this module may run from dist/src or from a
// chunk of dist/bundle, at different depths below it. template/ is published beside it.
const MANIFEST = createRequire(import.meta.url).resolve("create-pseudoclaude/package.json");
const TEMPLATE = path.join(path.dirname(MANIFEST), "template");

/** Why a scaffold stopped before writing anything; the bin exits 2 with the message. */
export class ScaffoldError extends Error {
  override readonly name = "ScaffoldError";
  constructor(
    readonly code: "target_not_empty" | "target_not_directory",
    message: string,
  ) {
    super(message);
  }
}

export interface ScaffoldOptions {
  /** Where to write the app; created if missing, refused if not empty. */
  directory: string;
  /** The app's package name. */
  name: string;
  /** The `@pseudoclaude/*` version to depend on (default: this package's own). */
  version?: string;
}

/** The version of this package, which every `@pseudoclaude/*` package of its release shares. */
export async function ownVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(MANIFEST, "utf8")) as { version: string };
  return manifest.version;
}

/** Entries of `directory`, or undefined when it does not exist. */
async function entriesOf(directory: string): Promise<string[] | undefined> {
  try {
    return await readdir(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ENOTDIR")
      throw new ScaffoldError("target_not_directory", `${directory} exists and is not a folder.`);
    throw error;
  }
}

/**
 * Write a starter app into `directory`: the template's files, its package.json and a README
 * with the app's name. Returns the files written, relative to the directory. Checks that the
 * directory is empty first, so a user's files are never overwritten.
 */
export async function scaffold(options: ScaffoldOptions): Promise<string[]> {
  const directory = path.resolve(options.directory);
  const existing = await entriesOf(directory);
  if (existing && existing.length > 0) {
    const shown = existing.slice(0, 5).join(", ") + (existing.length > 5 ? ", …" : "");
    throw new ScaffoldError(
      "target_not_empty",
      `${directory} is not empty (${shown}). Choose a new folder name, or empty this one first.`,
    );
  }
  await mkdir(directory, { recursive: true });
  await cp(TEMPLATE, directory, { recursive: true });
  // npm never publishes a file named .gitignore, so the template carries it without the dot.
  await rename(path.join(directory, "gitignore"), path.join(directory, ".gitignore"));
  const readme = path.join(directory, "README.md");
  await writeFile(readme, (await readFile(readme, "utf8")).replaceAll("{{name}}", options.name));
  const manifest = starterManifest(options.name, options.version ?? (await ownVersion()));
  await writeFile(path.join(directory, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const written: string[] = [];
  for (const entry of await readdir(directory, { recursive: true }))
    if ((await stat(path.join(directory, entry))).isFile()) written.push(entry);
  return written.sort();
}
