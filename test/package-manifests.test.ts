// What each publishable package declares matches what it ships and imports: every package
// that its built code imports is a declared dependency (else a user's install breaks), every
// declared dependency is used (else every user downloads it for nothing), and the fields a
// release needs are there. Reads the built `dist/src`, so run after `tsc -b`.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { publishablePackages } from "./support/package-tarballs.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LICENSE = readFileSync(path.join(ROOT, "LICENSE"), "utf8");

interface Manifest {
  name: string;
  license?: string;
  files?: string[];
  repository?: { type?: string; url?: string; directory?: string };
  publishConfig?: { access?: string; provenance?: boolean };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Every `.js` and `.d.ts` file under a folder. */
function builtFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js") || file.endsWith(".d.ts"))
    .map((file) => path.join(folder, file));
}

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** Bare specifiers the code imports statically or with a literal `import("...")`. */
function importedPackages(source: string): Set<string> {
  const found = new Set<string>();
  // A package name, not any string that follows a "from" in a message.
  const pattern =
    /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"((?:@[\w.-]+\/)?[\w-][\w.-]*(?:\/[\w./-]*)?)"/g;
  for (const match of source.matchAll(pattern)) {
    const specifier = match[1] as string;
    if (!specifier.startsWith("node:")) found.add(packageOf(specifier));
  }
  return found;
}

const packages = publishablePackages();

describe("package manifests", () => {
  for (const { name, folder } of packages) {
    const manifest = JSON.parse(
      readFileSync(path.join(folder, "package.json"), "utf8"),
    ) as Manifest;
    const sources = builtFiles(path.join(folder, "dist", "src")).map((file) =>
      readFileSync(file, "utf8"),
    );

    it(`${name} declares every package its code imports`, () => {
      const declared = new Set([
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.optionalDependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ]);
      const imported = new Set(sources.flatMap((source) => [...importedPackages(source)]));
      const undeclared = [...imported].filter((used) => !declared.has(used) && used !== name);
      assert.deepEqual(undeclared, [], `${name} imports packages it does not declare`);
    });

    it(`${name} uses every dependency it declares`, () => {
      const all = sources.join("\n");
      const declared = [
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.optionalDependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ];
      // Named in a string: an import, or a package the code loads on demand by its name.
      const unused = declared.filter(
        (dependency) => !all.includes(`"${dependency}"`) && !all.includes(`"${dependency}/`),
      );
      assert.deepEqual(unused, [], `${name} declares packages its code never loads`);
    });

    it(`${name} has what a release needs`, () => {
      assert.equal(manifest.license, "MIT");
      assert.equal(readFileSync(path.join(folder, "LICENSE"), "utf8"), LICENSE);
      for (const file of ["README.md", "CHANGELOG.md", "LICENSE"])
        assert.ok(manifest.files?.includes(file), `files lists ${file}`);
      assert.equal(manifest.repository?.directory, path.relative(ROOT, folder));
      assert.match(manifest.repository?.url ?? "", /^git\+https:\/\/.+\.git$/);
      assert.deepEqual(manifest.publishConfig, { access: "public", provenance: true });
      for (const peer of Object.keys(manifest.peerDependencies ?? {}))
        assert.equal(
          manifest.peerDependenciesMeta?.[peer]?.optional,
          true,
          `${peer} is an optional peer: the CLI loads it on demand and names it when missing`,
        );
    });
  }
});
