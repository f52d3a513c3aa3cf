// Pack the workspace's packages as npm would publish them, and install some of those tarballs
// into a fresh app the way a user would: the tests that use this see exactly what a user gets
// from the registry, not the monorepo's links.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** A publishable workspace package: its name, folder and manifest. */
export interface WorkspacePackage {
  name: string;
  folder: string;
  manifest: {
    name: string;
    version: string;
    private?: boolean;
    exports?: Record<string, { types?: string; default?: string }>;
    bin?: Record<string, string>;
  };
}

/** Every package under packages/ and plugins/ that is not private. */
export function publishablePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ["packages", "plugins"])
    for (const entry of readdirSync(path.join(ROOT, group))) {
      const folder = path.join(ROOT, group, entry);
      const manifest = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8"));
      if (!manifest.private) found.push({ name: manifest.name, folder, manifest });
    }
  return found;
}

/** Tarballs by package name, packed into `destination` by `npm pack` (what publish uploads). */
export async function packAll(
  packages: readonly WorkspacePackage[],
  destination: string,
): Promise<Map<string, string>> {
  const args = ["pack", "--json", "--pack-destination", destination];
  for (const pkg of packages) args.push("--workspace", pkg.name);
  const { stdout } = await exec("npm", args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const packed = JSON.parse(stdout) as Array<{ name: string; filename: string }>;
  return new Map(packed.map((entry) => [entry.name, path.join(destination, entry.filename)]));
}

/** The files one tarball holds, as `npm pack --dry-run` lists them. */
export function packedFiles(tarball: string): Promise<string[]> {
  return exec("tar", ["-tzf", tarball]).then(({ stdout }) =>
    stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => line.replace(/^package\//, "")),
  );
}

/**
 * The npm cache of the user running the tests. The test runner gives every test a temporary
 * HOME, which would make npm start from an empty cache and download everything again.
 */
function npmCache(): string {
  return process.env.npm_config_cache ?? path.join(os.userInfo().homedir, ".npm");
}

export interface AppInstall {
  dir: string;
  /** What npm printed, for failure messages. */
  output: string;
  remove(): Promise<void>;
}

/**
 * A fresh app that depends on `wanted` only. Every `@pseudoclaude/*` package resolves to its
 * tarball through `overrides` (none is on the registry yet), so the ones that end up in
 * `node_modules` are exactly the ones the wanted packages pull in. Third-party packages come
 * from the npm cache when it has them (`--prefer-offline`), from the registry otherwise.
 */
export async function installApp(
  wanted: readonly string[],
  tarballs: ReadonlyMap<string, string>,
  options: { omitOptional?: boolean } = {},
): Promise<AppInstall> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-install-"));
  const spec = (name: string) => {
    const file = tarballs.get(name);
    if (!file) throw new Error(`no tarball for ${name}`);
    return `file:${file}`;
  };
  const manifest = {
    name: "consumer-app",
    private: true,
    type: "module",
    dependencies: Object.fromEntries(wanted.map((name) => [name, spec(name)])),
    overrides: Object.fromEntries([...tarballs.keys()].map((name) => [name, spec(name)])),
  };
  await writeFile(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const args = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--cache", npmCache()];
  if (options.omitOptional) args.push("--omit=optional");
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const { stdout, stderr } = await exec("npm", args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
    return { dir, output: `${stdout}\n${stderr}`, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The `@pseudoclaude/*` packages installed in an app, sorted. */
export function installedScope(dir: string): string[] {
  return readdirSync(path.join(dir, "node_modules", "@pseudoclaude"))
    .map((name) => `@pseudoclaude/${name}`)
    .sort();
}

/** Disk use of the app's node_modules in KiB, as `du -sk` counts it (blocks, not bytes). */
export async function nodeModulesKib(dir: string): Promise<number> {
  const { stdout } = await exec("du", ["-sk", path.join(dir, "node_modules")]);
  return Number(stdout.split(/\s/)[0]);
}

/** Run a command in the app; never throws, so a test can assert on a failing exit. */
export async function runIn(
  dir: string,
  command: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(command, [...args], { cwd: dir, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === "number" ? failed.code : -1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? String(error),
    };
  }
}
