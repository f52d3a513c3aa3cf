import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ScaffoldError, scaffold } from "../src/scaffold.js";
import { STARTER_VERSIONS } from "../src/versions.js";

// From dist/test/ to the repository's root.
const REPO = fileURLToPath(new URL("../../../../", import.meta.url));

async function manifest(file: string): Promise<Record<string, Record<string, string>>> {
  return JSON.parse(await readFile(path.join(REPO, file), "utf8"));
}

describe("scaffold", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "create-pseudoclaude-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it("writes the starter with its name, a .gitignore and exact versions", async () => {
    const directory = path.join(root, "fresh");
    const files = await scaffold({ directory, name: "fresh-agent", version: "9.8.7" });
    for (const file of [".gitignore", "README.md", "package.json", "src/agent.ts"])
      assert.ok(files.includes(file), `${file} in ${files.join(", ")}`);
    assert.ok(!files.includes("gitignore"));
    assert.match(await readFile(path.join(directory, "README.md"), "utf8"), /^# fresh-agent\n/);
    const written = JSON.parse(await readFile(path.join(directory, "package.json"), "utf8"));
    assert.equal(written.name, "fresh-agent");
    assert.equal(written.dependencies["@pseudoclaude/core"], "9.8.7");
  });

  it("refuses a folder with anything in it, and leaves it as it was", async () => {
    const directory = path.join(root, "taken");
    await scaffold({ directory, name: "taken" });
    await writeFile(path.join(directory, "mine.txt"), "keep");
    await assert.rejects(
      scaffold({ directory, name: "again" }),
      (error: unknown) => error instanceof ScaffoldError && error.code === "target_not_empty",
    );
    assert.equal(await readFile(path.join(directory, "mine.txt"), "utf8"), "keep");
    await assert.rejects(
      scaffold({ directory: path.join(directory, "mine.txt"), name: "x" }),
      (error: unknown) => error instanceof ScaffoldError && error.code === "target_not_directory",
    );
  });

  it("pins the third-party versions this repository builds and tests with", async () => {
    const workspace = await manifest("package.json");
    const core = await manifest("packages/core/package.json");
    assert.deepEqual(STARTER_VERSIONS, {
      zod: core.dependencies?.zod,
      "@modelcontextprotocol/server-filesystem":
        workspace.devDependencies?.["@modelcontextprotocol/server-filesystem"],
      typescript: workspace.devDependencies?.typescript,
      "@types/node": workspace.devDependencies?.["@types/node"],
    });
  });
});
