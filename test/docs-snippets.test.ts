// Every TypeScript block of the README and the guides is a region of a file CI compiles or
// runs (`<!-- snippet: path#region -->` above it), so no guide can show code that no longer
// works.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MARKER = /^<!-- snippet: ([^#\s]+)(?:#([\w-]+))? -->$/;

/** The region of a source file, or the whole file without its leading comment lines. */
async function snippet(file: string, region: string | undefined): Promise<string> {
  const lines = (await readFile(path.join(ROOT, file), "utf8")).split("\n");
  if (region === undefined) {
    const first = lines.findIndex((line) => !line.startsWith("//"));
    return lines.slice(first).join("\n").trim();
  }
  const start = lines.indexOf(`// #region ${region}`);
  assert.notEqual(start, -1, `${file} has no region "${region}"`);
  const end = lines.indexOf("// #endregion", start);
  return lines
    .slice(start + 1, end)
    .join("\n")
    .trim();
}

async function guides(): Promise<string[]> {
  const docs = (await readdir(path.join(ROOT, "docs"))).filter((name) => name.endsWith(".md"));
  // Each package's README is what npm shows: its example is held to the same rule.
  const readmes: string[] = [];
  for (const folder of ["packages", "plugins"])
    for (const name of await readdir(path.join(ROOT, folder)))
      readmes.push(path.join(folder, name, "README.md"));
  return ["README.md", ...docs.map((name) => path.join("docs", name)), ...readmes];
}

describe("code in the docs", () => {
  it("is taken from files that CI compiles or runs, unchanged", async () => {
    let blocks = 0;
    for (const guide of await guides()) {
      const lines = (await readFile(path.join(ROOT, guide), "utf8")).split("\n");
      for (let index = 0; index < lines.length; index++) {
        const fence = /^```(\w*)\s*$/.exec(lines[index] ?? "");
        if (!fence) continue;
        const end = lines.indexOf("```", index + 1);
        // An unclosed block (or an opening fence this test does not read as one) would send
        // the scan back to the top of the file, forever.
        assert.notEqual(end, -1, `${guide}:${index + 1}: a code block that is never closed`);
        const marker = MARKER.exec(lines[index - 1] ?? "");
        const typescript = fence[1] === "ts" || fence[1] === "typescript";
        // Any block may come from a file (a config, a SKILL.md); TypeScript must.
        if (typescript || marker) {
          blocks += 1;
          assert.ok(
            marker,
            `${guide}:${index + 1}: a TypeScript block needs <!-- snippet: file#region --> above it`,
          );
          const shown = lines
            .slice(index + 1, end)
            .join("\n")
            .trim();
          assert.equal(
            shown,
            await snippet(marker[1] as string, marker[2]),
            `${guide}:${index + 1} differs from ${marker[1]}`,
          );
        }
        index = end;
      }
    }
    assert.ok(blocks >= 11, `found ${blocks} blocks`);
  });
});
