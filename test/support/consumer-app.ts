// A new app as a user starts one: `tsc --init` of the repository's TypeScript (6), the two
// settings a Node app adds to it (`types: ["node"]`, a src/dist layout), and the packed
// tarballs as its dependencies.
import { execFile } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import type { PackedPackage } from "./pack-workspaces.js";

const run = promisify(execFile);

/** The strict settings TypeScript 6's `tsc --init` writes, which the app must pass under. */
export const TSC_INIT_DEFAULTS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noUncheckedSideEffectImports: true,
  module: "nodenext",
  types: [],
} as const;

/**
 * The environment for npm and the app: without the `npm_*` variables of an enclosing `npm
 * test` (its prefix would send an install into the repository), with the user's npm cache
 * even when the test runs under an isolated HOME, so packages come from the cache when they can.
 */
export function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith("npm_")) env[key] = value;
  }
  env.npm_config_cache = process.env.npm_config_cache ?? path.join(os.userInfo().homedir, ".npm");
  env.npm_config_update_notifier = "false";
  return env;
}

/** `tsc --init` in `app`; returns the options it wrote, comments and all read as JSON. */
export async function tscInit(tsc: string, app: string): Promise<Record<string, unknown>> {
  await run(process.execPath, [tsc, "--init"], { cwd: app });
  const text = await readFile(path.join(app, "tsconfig.json"), "utf8");
  const parsed = ts.parseConfigFileTextToJson("tsconfig.json", text);
  if (parsed.error)
    throw new Error(ts.flattenDiagnosticMessageText(parsed.error.messageText, "\n"));
  return (parsed.config as { compilerOptions: Record<string, unknown> }).compilerOptions;
}

/**
 * What a user adds to `tsc --init`'s file for a Node app: the Node types and a src/dist
 * layout, by uncommenting the lines it offers. Each edit must find its line, so a change in
 * what `tsc --init` writes fails here instead of testing something else.
 */
export async function addNodeAppSettings(app: string): Promise<void> {
  const file = path.join(app, "tsconfig.json");
  let text = await readFile(file, "utf8");
  const edits: Array<[string, string]> = [
    ['"types": [],', '"types": ["node"],'],
    ['// "rootDir": "./src",', '"rootDir": "./src",'],
    ['// "outDir": "./dist",', '"outDir": "./dist",'],
  ];
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`tsc --init wrote no ${from} line to change`);
    text = text.replace(from, to);
  }
  await writeFile(file, text);
}

/** The app's package.json: every tarball, plus what the app itself imports or compiles with. */
export async function writeManifest(
  app: string,
  packed: readonly PackedPackage[],
  extra: { dependencies: Record<string, string>; devDependencies: Record<string, string> },
): Promise<void> {
  const dependencies: Record<string, string> = { ...extra.dependencies };
  for (const { name, tarball } of packed) dependencies[name] = `file:${tarball}`;
  const manifest = {
    name: "consumer-app",
    private: true,
    type: "module",
    dependencies,
    devDependencies: extra.devDependencies,
  };
  await writeFile(path.join(app, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Copy the app's sources in and install; install scripts are not run (none is needed). */
export async function installApp(app: string, sources: string): Promise<void> {
  await cp(sources, path.join(app, "src"), { recursive: true });
  await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline"], {
    cwd: app,
    env: childEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
}
