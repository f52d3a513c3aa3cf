// The bench on a machine without chromium: the studio row is skipped with a line that says how
// to install it, the run exits 0, and the results record the skip (not a failure). Run by CI
// after the bench itself (`node --test bench/dist/tests/`), since it needs the bench built.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const main = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "main.js");

test("a machine without chromium skips the studio row, says how to install it, and exits 0", () => {
  const results = mkdtempSync(path.join(os.tmpdir(), "pc-bench-no-browser-"));
  try {
    const missing = path.join(results, "no-such-chromium");
    const run = spawnSync(process.execPath, [main, "--rows", "studio_first_paint"], {
      encoding: "utf8",
      env: { ...process.env, PSEUDOCLAUDE_CHROMIUM: missing, BENCH_RESULTS_DIR: results },
      timeout: 120_000,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(
        `studio_first_paint: skipped: no chromium at ${missing}; install it \\(apt-get install -y chromium\\)`,
      ),
    );
    assert.doesNotMatch(run.stderr + run.stdout, /undefined/);
    const report = JSON.parse(readFileSync(path.join(results, "rows.json"), "utf8")) as {
      failures: string[];
      skipped: string[];
    };
    assert.deepEqual(report.failures, []);
    assert.equal(report.skipped.length, 1);
    assert.match(report.skipped[0] ?? "", /^studio_first_paint: no chromium at /);
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
});
