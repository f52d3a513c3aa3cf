// Bundles the public entry points (and commands) of every publishable package into
// dist/bundle, after `tsc -b` has built dist/src. Node 20 has no module compile cache and pays
// for every ES module it loads: the kernel and the MCP plugin are about 180 small files, and
// loading them as a few bundled chunks halves their import (measured: 204 against 108 ms,
// medians of 10); `pseudoclaude --version` loads some 170 more. What an entry loads lazily
// (`import()`) stays lazy: each becomes a chunk of its own. Packages stay external, so a
// plugin's bundle shares the kernel's classes with everyone else who imports
// `@pseudoclaude/core`. A module that needs a file of its package finds the package's root by
// its name (`require.resolve("<name>/package.json")`), not by its own depth.
//
// Each export in package.json names its file twice: `pseudoclaude-unbundled` (dist/src, one
// module per source file, what the package's own tests import beside its internals) and
// `default` (the bundle). This script bundles the first into the second and fails when an
// export's `default` is not where the bundle puts it.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const UNBUNDLED = "pseudoclaude-unbundled";
/**
 * Files started by path rather than imported, bundled beside the exports: commands started by a
 * committed launcher (bin/), and code mode's sandbox worker (a worker thread pays for every
 * module it loads before its first program can run).
 */
const STARTED = {
  "packages/cli": ["./dist/src/bin.js"],
  "plugins/code-mode": ["./dist/src/sandbox/sandbox-worker.js"],
};
/**
 * Dependencies bundled in rather than imported: sucrase is about 100 CommonJS files whose load
 * (50 ms) would compete with the sandbox worker's start on a cold program; bundled it takes 16.
 * It has no state or classes shared with anyone else.
 */
const INLINED = { "plugins/code-mode": ["sucrase"] };

/** Every package that is published: its folder has a package.json with exports, not private. */
function publishable() {
  return ["packages", "plugins"].flatMap((home) =>
    readdirSync(path.join(ROOT, home))
      .map((name) => `${home}/${name}`)
      .filter((dir) => {
        const file = path.join(ROOT, dir, "package.json");
        if (!existsSync(file)) return false;
        const manifest = JSON.parse(readFileSync(file, "utf8"));
        return !manifest.private && manifest.exports !== undefined;
      }),
  );
}

for (const dir of publishable()) {
  const folder = path.join(ROOT, dir);
  const manifest = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8"));
  // An export that is a plain file (`./package.json`) is served as it is.
  const bundledExports = Object.entries(manifest.exports).filter(
    ([, targets]) => typeof targets === "object",
  );
  const bins = Object.values(manifest.bin ?? {})
    .filter((bin) => bin.startsWith("dist/bundle/"))
    .map((bin) => `./${bin.replace("dist/bundle/", "dist/src/")}`);
  const sources = [
    ...bundledExports.map(([subpath, targets]) => {
      const source = targets[UNBUNDLED];
      const bundled = targets.default;
      const expected =
        typeof source === "string" ? source.replace("./dist/src/", "./dist/bundle/") : undefined;
      if (!source?.startsWith("./dist/src/") || bundled !== expected)
        throw new Error(
          `${dir}/package.json: export "${subpath}" needs "${UNBUNDLED}": "./dist/src/X.js" and "default": "./dist/bundle/X.js"`,
        );
      return source;
    }),
    ...bins,
    ...(STARTED[dir] ?? []),
  ];
  const entries = sources.map((source) => {
    const file = path.join(folder, source);
    if (!existsSync(file)) throw new Error(`${file} is missing: run tsc -b first`);
    return file;
  });
  const outdir = path.join(folder, "dist", "bundle");
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: entries,
    outbase: path.join(folder, "dist", "src"),
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    plugins: [externalPackages(INLINED[dir] ?? [])],
    // An inlined package's ES module build, so that its named exports stay named.
    mainFields: ["module", "main"],
    chunkNames: "chunks/[name]-[hash]",
    // No keepNames: it wraps every closure a hot path makes in a call that defines its name
    // (measured on the 2026-07-28 call path). Classes keep the names they are written with
    // unless two modules of a bundle share one; checkNames below fails the build then.
    // Stack traces point at the TypeScript sources (src/ ships beside dist/).
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "warning",
  });
  checkNames(dir, path.join(folder, "dist", "src"), outdir);
}

/**
 * Every package stays external but those named, which are bundled in with what they import
 * (a file under node_modules reaches the bundle only through an inlined package).
 */
function externalPackages(inlined) {
  return {
    name: "external-packages",
    setup(build) {
      // A bare specifier (not ./, ../ or /) names a package or a Node built-in.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const name = args.path.startsWith("@")
          ? args.path.split("/").slice(0, 2).join("/")
          : args.path.split("/")[0];
        return inlined.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/**
 * Every class in a bundle is named as in the sources: errors take their `name` from their class
 * (`new.target.name`), and esbuild renames a class (`Foo2`) when two modules of one bundle
 * declare the same name. (An inlined package's own classes are not ours: only a name of ours
 * with a number added counts.)
 */
function checkNames(dir, sources, bundle) {
  const written = classNames(sources);
  const renamed = [...classNames(bundle)].filter(
    (name) => !written.has(name) && written.has(name.replace(/\d+$/, "")),
  );
  if (renamed.length > 0)
    throw new Error(
      `${dir}: the bundle renamed ${renamed.join(", ")}: two of its modules declare a class of the same name; rename one`,
    );
}

function classNames(folder) {
  const names = new Set();
  const pattern =
    /\bclass\s+([A-Za-z_$][\w$]*)|\b(?:var|let|const)\s+([A-Za-z_$][\w$]*)\s*=\s*class\b/g;
  for (const file of readdirSync(folder, { recursive: true, encoding: "utf8" }))
    if (file.endsWith(".js"))
      for (const match of readFileSync(path.join(folder, file), "utf8").matchAll(pattern))
        names.add(match[1] ?? match[2]);
  return names;
}
