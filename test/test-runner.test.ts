// `npm test`'s runner (scripts/run-tests.mjs) on a tree of its own: it finds test files in
// subfolders too, and fails, saying how to record new counts, when fewer files or tests ran
// than test/test-counts.json records; with as many it passes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const RUNNER = fileURLToPath(new URL("../../scripts/run-tests.mjs", import.meta.url));

async function tree(counts: { files: number; tests: number }): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), "pc-test-runner-"));
  const write = async (file: string, text: string) => {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  };
  await write("test/dist/support/isolated-home.js", "");
  await write("test/dist/support/package-test-modules.js", "");
  await mkdir(path.join(root, "plugins"), { recursive: true });
  await write(
    "packages/one/dist/test/deep/inner.test.js",
    'import { test } from "node:test"; test("a", () => {}); test("b", () => {});\n',
  );
  await write("test/dist/top.test.js", 'import { test } from "node:test"; test("c", () => {});\n');
  await write("test/test-counts.json", JSON.stringify(counts));
  return root;
}

function run(root: string) {
  const { NODE_TEST_CONTEXT: _parent, ...env } = process.env;
  return spawnSync(process.execPath, [RUNNER], {
    encoding: "utf8",
    env: { ...env, PSEUDOCLAUDE_TEST_ROOT: root },
    timeout: 60_000,
  });
}

describe("npm test's runner", () => {
  it("finds files in subfolders and passes with the recorded counts", async () => {
    const root = await tree({ files: 2, tests: 3 });
    try {
      const done = run(root);
      assert.equal(done.status, 0, done.stderr + done.stdout);
      assert.match(done.stdout, /test counts: 2 files, 3 tests/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("fails when fewer files or tests ran than are recorded", async () => {
    const root = await tree({ files: 3, tests: 5 });
    try {
      const done = run(root);
      assert.equal(done.status, 1);
      assert.match(done.stderr, /2 test files ran, 3 are recorded; 3 tests ran, 5 are recorded/);
      assert.match(done.stderr, /npm test -- --update-counts/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
