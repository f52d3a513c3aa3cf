// The @mastra/mcp interop server lives in a package of its own (plugins/mcp/test/interop/mastra): Mastra
// declares Node >= 22 and the root installs with engine-strict, so it cannot be a root
// dependency, while it runs on Node 20. The test that uses it installs it here, once, and
// again only when its lockfile changes, the way bench/scripts/run.mjs installs bench/.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The package's folder in the source tree (dist/test/support -> test/interop/mastra). */
export const MASTRA_PACKAGE = path.resolve(here, "..", "..", "..", "test", "interop", "mastra");

/**
 * The path of the Mastra server script, its dependencies installed first when they are
 * missing or its package-lock.json changed since they were (a stamp in its node_modules).
 */
export async function mastraServerScript(): Promise<string> {
  const lock = await readFile(path.join(MASTRA_PACKAGE, "package-lock.json"));
  const hash = createHash("sha256").update(lock).digest("hex");
  const stamp = path.join(MASTRA_PACKAGE, "node_modules", ".installed-lock-hash");
  const installed = existsSync(stamp) ? await readFile(stamp, "utf8") : "";
  if (installed !== hash) {
    await npmCi();
    await writeFile(stamp, hash);
  }
  return path.join(MASTRA_PACKAGE, "server.mjs");
}

/**
 * `npm ci` in the package, as if run there by hand: without the root's npm_config_ variables
 * (under `npm test` they carry its engine-strict, which beats the package's .npmrc), with
 * engine-strict off said on the command line as well, and with the user's real home, so
 * npm finds its usual configuration and cache (the test run gives HOME a temporary folder).
 */
function npmCi(): Promise<void> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_(config|package|lifecycle)_/i.test(name)),
  );
  const home = os.userInfo().homedir;
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["ci", "--no-audit", "--no-fund", "--engine-strict=false"], {
      cwd: MASTRA_PACKAGE,
      env: { ...env, HOME: home, USERPROFILE: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`npm ci in ${MASTRA_PACKAGE} exited with ${code}:\n${output}`));
    });
  });
}
