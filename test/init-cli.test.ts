// `pseudoclaude init` writes the same starter app as `npm create pseudoclaude` (the scaffold of
// create-pseudoclaude; test/create-pseudoclaude.test.ts installs and runs that app), refuses a
// folder that is not empty with exit code 2 and a usage error code, and checks --name.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { runCli } from "./support/cli.js";

describe("pseudoclaude init", () => {
  it("writes the starter into a new folder, named after it or --name", async () => {
    const workspace = await createTempWorkspace("pc-init-");
    try {
      const plain = await runCli(workspace, ["init", "First App"]);
      assert.equal(plain.code, 0, plain.stderr);
      assert.match(plain.stdout, /Created first-app in .*First App \(\d+ files\)/);
      for (const file of ["src/agent.ts", "test/agent.test.ts", "skills/project-tour/SKILL.md"])
        assert.ok(existsSync(path.join(workspace.root, "First App", file)), file);

      const named = await runCli(workspace, ["init", "second", "--name", "@me/second", "--json"]);
      assert.equal(named.code, 0, named.stderr);
      const report = JSON.parse(named.stdout);
      assert.equal(report.name, "@me/second");
      assert.ok(report.files.includes("package.json"));
      const manifest = JSON.parse(
        await readFile(path.join(workspace.root, "second", "package.json"), "utf8"),
      );
      assert.equal(manifest.name, "@me/second");
    } finally {
      await workspace.cleanup();
    }
  });

  it("refuses a folder that is not empty and a name npm would refuse, with exit code 2", async () => {
    const workspace = await createTempWorkspace("pc-init-");
    try {
      await writeFile(path.join(workspace.root, "notes.txt"), "mine");
      const refused = await runCli(workspace, ["init", ".", "--json", "--name", "here"]);
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.match(refused.stdout + refused.stderr, /"code":\s*"target_not_empty"/);
      assert.equal(await readFile(path.join(workspace.root, "notes.txt"), "utf8"), "mine");
      const badName = await runCli(workspace, ["init", "app", "--name", "Capitals"]);
      assert.equal(badName.code, 2, badName.stderr);
      assert.match(badName.stderr, /"Capitals" is not a valid npm package name/);
      assert.ok(!existsSync(path.join(workspace.root, "app")));
    } finally {
      await workspace.cleanup();
    }
  });
});
