// What the code, tests and docs say must stand on its own: no reference to documents outside
// the repository ("the seed" article) or to the issue that brought a change. Comments say why;
// history belongs to commits.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SKIP = new Set(["node_modules", "dist", ".git", "api", "fixtures", "results"]);
const TEXT = /(\.(ts|md|sh|ya?ml)|^run)$/;

async function textFiles(dir: string, found: string[] = []): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith(".changeset")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await textFiles(full, found);
    else if (TEXT.test(entry.name)) found.push(full);
  }
  return found;
}

describe("habits", () => {
  it("no code, test or doc refers to the seed article or to issue numbers", async () => {
    const homes = ["packages", "plugins", "test", "docs", "bench", "examples", ".ci"];
    const files = (
      await Promise.all(homes.map((home) => textFiles(path.join(ROOT, home)).catch(() => [])))
    ).flat();
    files.push(path.join(ROOT, "README.md"));
    assert.ok(files.length > 300, `${files.length} files read`);
    const pattern = /seed defect|the seed(?:'s| article)|\bissue #?\d+\b/i;
    const offending: string[] = [];
    for (const file of files) {
      if (
        file ===
        fileURLToPath(import.meta.url)
          .replace(/dist[/\\]/, "")
          .replace(/\.js$/, ".ts")
      )
        continue;
      const lines = (await readFile(file, "utf8")).split("\n");
      lines.forEach((line, index) => {
        if (pattern.test(line))
          offending.push(`${path.relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(offending, []);
  });
});
