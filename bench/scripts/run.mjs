#!/usr/bin/env node
// `npm run bench` (root: build first, then this): install the bench's own dependencies when
// they are missing or its lockfile changed (the peers live here only, never in users'
// installs), compile the bench, run it with the arguments given (`--quick`, `--contenders`,
// `--rows`, `--reps`).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const bench = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.join(bench, "..");
const lock = path.join(bench, "package-lock.json");
const stamp = path.join(bench, "node_modules", ".installed-lock-hash");

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", cwd: bench, ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const hash = createHash("sha256").update(readFileSync(lock)).digest("hex");
if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== hash) {
  console.error("bench: installing its own dependencies (npm ci in bench/)");
  // Said on the command line: under `npm run`, the root's engine-strict arrives as an
  // npm_config_ variable, which beats bench/.npmrc (two peers declare Node 22; see README).
  run("npm", ["ci", "--no-audit", "--no-fund", "--engine-strict=false"]);
  writeFileSync(stamp, hash);
}
run(process.execPath, [
  path.join(root, "node_modules", "typescript", "bin", "tsc"),
  "-p",
  "tsconfig.json",
]);
run(process.execPath, [path.join(bench, "dist", "main.js"), ...process.argv.slice(2)]);
