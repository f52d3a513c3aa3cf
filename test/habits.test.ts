// What the code, tests and docs say must stand on its own: no reference to a document outside
// the repository that the project started from, or to the tracker entry that brought a change.
// Comments say why; history belongs to commits.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SKIP = new Set(["node_modules", "dist", ".git", "api", "fixtures", "results"]);
const TEXT = /(\.(ts|md|sh|ya?ml)|^run)$/;
const SOURCE = /\.tsx?$/;
// A file past this is holding more than one thing: split it by what its parts hold.
const MAX_SOURCE_LINES = 400;

async function textFiles(dir: string, found: string[] = [], kind = TEXT): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith(".changeset")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await textFiles(full, found, kind);
    else if (kind.test(entry.name)) found.push(full);
  }
  return found;
}

describe("habits", () => {
  it("no code, test or doc refers to the starting article or to tracker entries", async () => {
    const homes = ["packages", "plugins", "test", "docs", "bench", "examples", ".ci"];
    const files = (
      await Promise.all(homes.map((home) => textFiles(path.join(ROOT, home)).catch(() => [])))
    ).flat();
    files.push(path.join(ROOT, "README.md"));
    assert.ok(files.length > 300, `${files.length} files read`);
    // Spelt in pieces, so that this file does not match what it looks for.
    const [article, entry] = [["se", "ed"].join(""), ["iss", "ue"].join("")];
    const pattern = new RegExp(
      `${article} defect|the ${article}(?:'s| article)|\\b${entry} #?\\d+\\b`,
      "i",
    );
    const offending: string[] = [];
    for (const file of files) {
      const lines = (await readFile(file, "utf8")).split("\n");
      lines.forEach((line, index) => {
        if (pattern.test(line))
          offending.push(`${path.relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(offending, []);
  });

  it(`no source file is over ${MAX_SOURCE_LINES} lines`, async () => {
    const homes = ["packages", "plugins", "test", "bench/src", "examples"];
    const files = (
      await Promise.all(
        homes.map((home) => textFiles(path.join(ROOT, home), [], SOURCE).catch(() => [])),
      )
    ).flat();
    assert.ok(files.length > 300, `${files.length} source files read`);
    const over: string[] = [];
    for (const file of files) {
      const text = await readFile(file, "utf8");
      const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
      if (lines > MAX_SOURCE_LINES) over.push(`${path.relative(ROOT, file)}: ${lines} lines`);
    }
    assert.deepEqual(over, [], "split these files by what their parts hold");
  });
});
