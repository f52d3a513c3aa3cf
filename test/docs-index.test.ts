// The docs have an index a reader can start from: docs/README.md links every page of docs/,
// every link in it (and in the README's docs section) leads to a page that exists, and the
// README links the index. The benchmarks page stays a reference, not a log of runs.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOCS = path.join(ROOT, "docs");

/** The relative Markdown links of `text` (anchors dropped). */
function links(text: string): string[] {
  return [...text.matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((match) => match[1] ?? "");
}

describe("the docs index", () => {
  it("links every page of docs/, and each of its links leads to a page", async () => {
    const index = await readFile(path.join(DOCS, "README.md"), "utf8");
    const linked = new Set(links(index));
    const pages = (await readdir(DOCS)).filter(
      (name) => name.endsWith(".md") && name !== "README.md",
    );
    assert.ok(pages.length > 25, `${pages.length} pages`);
    const missing = pages.filter((page) => !linked.has(page));
    assert.deepEqual(missing, [], "pages the index does not link");
    const broken = [...linked].filter((target) => !existsSync(path.join(DOCS, target)));
    assert.deepEqual(broken, [], "links to no page");
  });

  it("keeps the benchmarks page a reference (today's figures and the method, under 200 lines)", async () => {
    const lines = (await readFile(path.join(DOCS, "benchmarks.md"), "utf8")).split("\n").length;
    assert.ok(
      lines < 200,
      `docs/benchmarks.md has ${lines} lines; past runs belong in bench/results/`,
    );
  });

  it("is linked from the README", async () => {
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    assert.match(readme, /\]\(docs\/README\.md\)/);
    const broken = links(readme).filter((target) => !existsSync(path.join(ROOT, target)));
    assert.deepEqual(broken, [], "README links to no page");
  });
});
