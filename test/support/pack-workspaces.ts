// `npm pack` of every public package of the repository's workspaces, as a user would get each
// from the registry: only what the package's `files` and `exports` ship.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A packed package: its name and the tarball's path. */
export interface PackedPackage {
  name: string;
  tarball: string;
}

interface Manifest {
  name: string;
  private?: boolean;
  workspaces?: string[];
}

async function manifest(folder: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(path.join(folder, "package.json"), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

/**
 * The public workspace packages, read from the root's `workspaces` (`dir/*` or `dir`), so a
 * package added or moved (a new plugin, `apps/cli`) is packed without this file changing.
 */
export async function publicWorkspaces(root: string): Promise<string[]> {
  const folders: string[] = [];
  for (const pattern of (await manifest(root))?.workspaces ?? []) {
    if (pattern.endsWith("/*")) {
      const parent = path.join(root, pattern.slice(0, -2));
      const entries = await readdir(parent, { withFileTypes: true });
      folders.push(...entries.filter((e) => e.isDirectory()).map((e) => path.join(parent, e.name)));
    } else {
      folders.push(path.join(root, pattern));
    }
  }
  const names: string[] = [];
  for (const folder of folders.sort()) {
    const found = await manifest(folder);
    if (found && !found.private) names.push(found.name);
  }
  return names;
}

/** Pack each public workspace package into `destination`; `env` is the npm child's. */
export async function packWorkspaces(
  root: string,
  destination: string,
  env: NodeJS.ProcessEnv,
): Promise<PackedPackage[]> {
  const names = await publicWorkspaces(root);
  const workspaceFlags = names.flatMap((name) => ["--workspace", name]);
  const { stdout } = await run(
    "npm",
    ["pack", "--json", "--pack-destination", destination, ...workspaceFlags],
    { cwd: root, env, maxBuffer: 64 * 1024 * 1024 },
  );
  const packed = JSON.parse(stdout) as Array<{ name: string; filename: string }>;
  return packed.map((entry) => ({
    name: entry.name,
    tarball: path.join(destination, entry.filename),
  }));
}
