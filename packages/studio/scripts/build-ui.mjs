// Builds the studio's page into dist/ui: the TypeScript is type-checked, then bundled with
// Preact by esbuild into one script; the HTML and CSS are copied. Nothing is loaded from a CDN.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(root, "dist", "ui");
// Chunk names change with their contents: a build starts empty, so no stale chunk is packed.
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
try {
  execFileSync(process.execPath, [tsc, "-p", path.join(root, "ui", "tsconfig.json")], {
    stdio: "inherit",
  });
} catch {
  console.error("The studio's page has type errors (above): packages/studio/ui/src.");
  process.exit(1);
}

await build({
  entryPoints: { app: path.join(root, "ui", "src", "main.tsx") },
  outdir: out,
  // What loads on demand (the MCP Apps bridge with the first view) is a chunk of its own, so
  // the page's first load does not carry it. Flat names: the studio serves /assets/<name>.
  splitting: true,
  chunkNames: "chunk-[hash]",
  bundle: true,
  format: "esm",
  minify: true,
  sourcemap: false,
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "linked",
  logLevel: "warning",
});
copyFileSync(path.join(root, "ui", "index.html"), path.join(out, "index.html"));
copyFileSync(path.join(root, "ui", "styles.css"), path.join(out, "app.css"));
