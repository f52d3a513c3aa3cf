#!/usr/bin/env node
// `npm test` after the build: every compiled test file of every package and plugin
// (`<package>/dist/test/**`) and of the root (`test/dist/**`), found recursively, run with
// the isolated home; then the number of test files and tests is checked against
// test/test-counts.json, so a test moved where nothing finds it fails the run instead of
// vanishing. `--update-counts` records the counts of this run (after tests were removed on
// purpose, or to record new ones).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// PSEUDOCLAUDE_TEST_ROOT: another tree laid out like this one (the runner's own test).
const root =
  process.env.PSEUDOCLAUDE_TEST_ROOT ??
  path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const countsFile = path.join(root, "test", "test-counts.json");
const update = process.argv.includes("--update-counts");

/** Every `*.test.js` under `dir`, depth first, in a stable order; node_modules left out. */
function testFiles(dir, found = []) {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) testFiles(full, found);
    else if (entry.name.endsWith(".test.js")) found.push(path.relative(root, full));
  }
  return found;
}

const homes = ["packages", "plugins"].flatMap((group) =>
  readdirSync(path.join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(root, group, entry.name, "dist", "test")),
);
const files = [...homes, path.join(root, "test", "dist")].flatMap((dir) => testFiles(dir));

const scratch = mkdtempSync(path.join(os.tmpdir(), "pc-test-counts-"));
const counted = path.join(scratch, "tests.jsonl");
const run = spawnSync(
  process.execPath,
  [
    "--import",
    "./test/dist/support/isolated-home.js",
    "--import",
    "./test/dist/support/package-test-modules.js",
    "--test",
    "--test-concurrency=2",
    "--test-reporter=tap",
    "--test-reporter-destination=stdout",
    `--test-reporter=${path.join(path.dirname(fileURLToPath(import.meta.url)), "test-count-reporter.mjs")}`,
    `--test-reporter-destination=${counted}`,
    ...files,
  ],
  { cwd: root, stdio: "inherit" },
);
const tests = existsSync(counted)
  ? readFileSync(counted, "utf8").split("\n").filter(Boolean).length
  : 0;
rmSync(scratch, { recursive: true, force: true });
if (run.status !== 0) process.exit(run.status ?? 1);

const now = { files: files.length, tests };
if (update) {
  writeFileSync(countsFile, `${JSON.stringify(now, null, 2)}\n`);
  console.log(
    `test counts recorded in test/test-counts.json: ${now.files} files, ${now.tests} tests`,
  );
  process.exit(0);
}
const committed = JSON.parse(readFileSync(countsFile, "utf8"));
const lost = [];
if (now.files < committed.files)
  lost.push(`${now.files} test files ran, ${committed.files} are recorded`);
if (now.tests < committed.tests)
  lost.push(`${now.tests} tests ran, ${committed.tests} are recorded`);
if (lost.length > 0) {
  console.error(
    `Fewer tests than test/test-counts.json records: ${lost.join("; ")}. A test file outside` +
      " <package>/test or test/ (or not named *.test.ts) is not run. If tests were removed on" +
      " purpose, record the new counts: npm test -- --update-counts",
  );
  process.exit(1);
}
console.log(
  `test counts: ${now.files} files, ${now.tests} tests (recorded: ${committed.files}, ${committed.tests})` +
    (now.files > committed.files || now.tests > committed.tests
      ? "; record the new ones with npm test -- --update-counts"
      : ""),
);
