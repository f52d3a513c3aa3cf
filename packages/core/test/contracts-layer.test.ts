// The kernel's contracts are a layer of their own: src/contracts/ (tools, sources, providers,
// the policy, run records, hooks, events, the sub-agent handle) imports nothing of the kernel
// but itself and src/util/ (which imports nothing of the kernel at all), and no file of the
// kernel takes part in an import cycle, type imports included.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** Every .ts file under `dir`, relative to src/. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith(".ts") ? [path.relative(SRC, full)] : [];
  });
}

/** The kernel files a file imports (relative specifiers), relative to src/. */
function imports(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)\.js"/g)].map((match) =>
    path.normalize(path.join(path.dirname(file), `${match[1]}.ts`)),
  );
}

describe("the kernel's layers", () => {
  const files = sources();

  it("the contracts import only contracts and util; util imports only util", () => {
    const outside: string[] = [];
    for (const file of files) {
      const layer = file.split(path.sep)[0];
      if (layer !== "contracts" && layer !== "util") continue;
      const allowed = layer === "contracts" ? ["contracts", "util"] : ["util"];
      for (const target of imports(file))
        if (!allowed.includes(target.split(path.sep)[0] ?? ""))
          outside.push(`${file} -> ${target}`);
    }
    assert.ok(files.filter((file) => file.startsWith("contracts")).length >= 15);
    assert.deepEqual(outside, []);
  });

  it("no file takes part in an import cycle", () => {
    const graph = new Map(files.map((file) => [file, imports(file)]));
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const trail: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      trail.push(file);
      for (const next of graph.get(file) ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === "open")
          cycles.push([...trail.slice(trail.indexOf(next)), next].join(" -> "));
        else if (!state.has(next)) visit(next);
      }
      trail.pop();
      state.set(file, "done");
    };
    for (const file of files) if (!state.has(file)) visit(file);
    assert.deepEqual(cycles, []);
  });
});
