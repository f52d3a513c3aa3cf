// Each package installs alone: `npm pack` every workspace package, install a few realistic
// sets of tarballs into fresh apps, and check that only the packages each set needs arrive,
// that every entry point loads and declares its types, and that the CLI runs with its
// default install and names the package to add for a feature left out. The install sizes it
// prints are the figures of docs/installing.md.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type AppInstall,
  installApp,
  installedScope,
  nodeModulesKib,
  packAll,
  packedFiles,
  publishablePackages,
  runIn,
  type WorkspacePackage,
} from "./support/package-tarballs.js";

const CORE = "@pseudoclaude/core";
const CLI = "@pseudoclaude/cli";
const DURABLE = "@pseudoclaude/durable-restate";
/** What `npm install @pseudoclaude/cli` brings: its dependencies and optional dependencies. */
const CLI_DEFAULTS = [
  CLI,
  CORE,
  "@pseudoclaude/compat-claude-code",
  "@pseudoclaude/plugin-agents",
  "@pseudoclaude/plugin-builtin-tools",
  "@pseudoclaude/plugin-code-mode",
  "@pseudoclaude/plugin-hooks",
  "@pseudoclaude/plugin-mcp",
  "@pseudoclaude/plugin-skills",
  "@pseudoclaude/provider-anthropic",
  "@pseudoclaude/provider-openai",
  "@pseudoclaude/provider-scripted",
  "@pseudoclaude/studio",
  "@pseudoclaude/gateway",
];
const SDK_PROVIDERS = ["@pseudoclaude/provider-anthropic", "@pseudoclaude/provider-openai"];
/** The CLI's optional dependencies: the SDK providers, the studio and the gateway. */
const CLI_OPTIONAL = [...SDK_PROVIDERS, "@pseudoclaude/studio", "@pseudoclaude/gateway"];
/**
 * Upper bounds (MiB), about a quarter above what was measured (19.8-22, 55.8, 105.2-113.1,
 * 48.8): a new heavy dependency fails here instead of growing every user's install unnoticed.
 */
const SIZE_BOUNDS_MIB = { core: 25, coreMcpOpenai: 70, cli: 132, cliWithoutSdks: 61 };

const packages = publishablePackages();
const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
let tarballDir: string;
let tarballs: Map<string, string>;
const installs: AppInstall[] = [];

/** Import every entry point of the installed packages in one Node process; list the failures. */
async function importEntryPoints(app: AppInstall, names: readonly string[]): Promise<string[]> {
  const specifiers = names.flatMap((name) =>
    Object.keys(manifestOf(name).exports ?? { ".": {} }).map((key) =>
      key === "." ? name : `${name}/${key.slice(2)}`,
    ),
  );
  const script = path.join(app.dir, "import-all.mjs");
  await writeFile(
    script,
    `const failed = [];
for (const specifier of ${JSON.stringify(specifiers)}) {
  // A package's own package.json is exported as data: JSON needs its import attribute.
  const options = specifier.endsWith(".json") ? { with: { type: "json" } } : undefined;
  try { await import(specifier, options); } catch (error) { failed.push(specifier + ": " + error.message); }
}
console.log(JSON.stringify(failed));\n`,
  );
  const run = await runIn(app.dir, process.execPath, [script]);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as string[];
}

function manifestOf(name: string): WorkspacePackage["manifest"] {
  const pkg = byName.get(name);
  assert.ok(pkg, `${name} is a workspace package`);
  return pkg.manifest;
}

/** Every `types` file the installed packages' `exports` name, missing ones listed. */
function missingTypes(app: AppInstall, names: readonly string[]): string[] {
  return names.flatMap((name) =>
    Object.values(manifestOf(name).exports ?? {})
      .map((target) => target.types)
      .filter((types): types is string => types !== undefined)
      .filter((types) => !existsSync(path.join(app.dir, "node_modules", name, types)))
      .map((types) => `${name}: ${types}`),
  );
}

async function install(wanted: readonly string[], omitOptional = false): Promise<AppInstall> {
  const app = await installApp(wanted, tarballs, { omitOptional });
  installs.push(app);
  return app;
}

async function sizeMib(app: AppInstall): Promise<number> {
  return Math.round(((await nodeModulesKib(app.dir)) / 1024) * 10) / 10;
}

describe("packages installed from their tarballs", { timeout: 300_000 }, () => {
  before(async () => {
    tarballDir = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-tarballs-"));
    tarballs = await packAll(packages, tarballDir);
  });
  after(async () => {
    await Promise.all(installs.map((app) => app.remove()));
    if (tarballDir) await rm(tarballDir, { recursive: true, force: true });
  });

  it("packs every package with its README, LICENSE, CHANGELOG and built entry points, and no tests or build state", async () => {
    assert.deepEqual([...tarballs.keys()].sort(), packages.map((pkg) => pkg.name).sort());
    for (const [name, tarball] of tarballs) {
      const files = await packedFiles(tarball);
      for (const required of ["package.json", "README.md", "LICENSE", "CHANGELOG.md"])
        assert.ok(files.includes(required), `${name} ships ${required}`);
      for (const target of Object.values(manifestOf(name).exports ?? {}))
        for (const file of [target.types, target.default])
          if (file) assert.ok(files.includes(file.replace(/^\.\//, "")), `${name} ships ${file}`);
      // The starter app's own test is a file create-pseudoclaude writes, not a test of ours.
      const unwanted = files.filter(
        (file) =>
          !(name === "create-pseudoclaude" && file.startsWith("template/")) &&
          /(^|\/)test\/|\.test\.|tsbuildinfo|(^|\/)fixtures\//.test(file),
      );
      assert.deepEqual(unwanted, [], `${name} ships no tests, fixtures or build state`);
    }
  });

  it("installs the kernel alone", async (t) => {
    const app = await install([CORE]);
    assert.deepEqual(installedScope(app.dir), [CORE]);
    assert.deepEqual(await importEntryPoints(app, [CORE]), []);
    assert.deepEqual(missingTypes(app, [CORE]), []);
    const size = await sizeMib(app);
    t.diagnostic(`install size, core alone: ${size} MiB`);
    assert.ok(size < SIZE_BOUNDS_MIB.core, `core alone is ${size} MiB`);
  });

  it("installs the kernel with the MCP plugin and the OpenAI provider, and nothing else of ours", async (t) => {
    const wanted = [CORE, "@pseudoclaude/plugin-mcp", "@pseudoclaude/provider-openai"];
    const app = await install(wanted);
    assert.deepEqual(installedScope(app.dir), [...wanted].sort());
    assert.deepEqual(await importEntryPoints(app, wanted), []);
    assert.deepEqual(missingTypes(app, wanted), []);
    for (const absent of [
      "@anthropic-ai/sdk",
      "@restatedev/restate-sdk",
      "@opentelemetry/sdk-node",
    ])
      assert.ok(!existsSync(path.join(app.dir, "node_modules", absent)), `${absent} not installed`);
    const size = await sizeMib(app);
    t.diagnostic(`install size, core + plugin-mcp + provider-openai: ${size} MiB`);
    assert.ok(size < SIZE_BOUNDS_MIB.coreMcpOpenai, `core + MCP + OpenAI is ${size} MiB`);
  });

  it("installs the CLI with its defaults: it runs, and names the package a left-out feature needs", async (t) => {
    const app = await install([CLI]);
    assert.deepEqual(installedScope(app.dir), [...CLI_DEFAULTS].sort());
    assert.deepEqual(await importEntryPoints(app, CLI_DEFAULTS), []);
    assert.deepEqual(missingTypes(app, CLI_DEFAULTS), []);
    // The studio's tracer, like `--trace FILE`, loads OpenTelemetry's SDK only when installed.
    for (const absent of ["@restatedev/restate-sdk", "@opentelemetry/sdk-trace-base"])
      assert.ok(!existsSync(path.join(app.dir, "node_modules", absent)), `${absent} not installed`);
    const size = await sizeMib(app);
    t.diagnostic(`install size, CLI with its defaults: ${size} MiB`);
    assert.ok(size < SIZE_BOUNDS_MIB.cli, `the CLI is ${size} MiB`);

    const bin = path.join(app.dir, "node_modules", ".bin", "pseudoclaude");
    const version = await runIn(app.dir, bin, ["--version"]);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), manifestOf(CLI).version);

    // The scripted provider now ships with the CLI itself, not with the test kit.
    await writeFile(path.join(app.dir, "turns.json"), '[{ "text": "hello from a tarball" }]');
    const run = await runIn(app.dir, bin, ["run", "hi", "--script", "turns.json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /hello from a tarball/);

    const durable = await runIn(app.dir, bin, ["run", "hi", "--durable", "restate"]);
    assert.equal(durable.code, 2, durable.stderr);
    assert.match(
      durable.stderr,
      /Durable runs \(--durable restate\) needs the package @pseudoclaude\/durable-restate, which is not installed\..*npm install @pseudoclaude\/durable-restate/,
    );
    const traced = await runIn(app.dir, bin, [
      "run",
      "hi",
      "--script",
      "turns.json",
      "--trace",
      "t.jsonl",
    ]);
    assert.equal(traced.code, 2, traced.stderr);
    assert.match(traced.stderr, /--trace FILE needs the packages @opentelemetry\/sdk-trace-base /);
  });

  it("installs the CLI without its optional SDK providers, and says how to add one; the durable package, once added, is found", async (t) => {
    const size = await sizeMib(await install([CLI], true));
    t.diagnostic(`install size, CLI with --omit=optional: ${size} MiB`);
    // The same install plus the package a durable run asked for, as its message says to add it.
    const app = await install([CLI, DURABLE], true);
    const expected = CLI_DEFAULTS.filter((name) => !CLI_OPTIONAL.includes(name));
    assert.deepEqual(installedScope(app.dir), [...expected, DURABLE].sort());
    assert.ok(size < SIZE_BOUNDS_MIB.cliWithoutSdks, `the CLI without SDKs is ${size} MiB`);
    const bin = path.join(app.dir, "node_modules", ".bin", "pseudoclaude");
    const tools = await runIn(app.dir, bin, ["tools", "--json"]);
    assert.equal(tools.code, 0, tools.stderr);
    // Found and loaded: what stops this run is the server it cannot reach, not the package.
    const durable = await runIn(app.dir, bin, [
      ...["run", "hi", "--durable", "restate", "--ingress", "http://127.0.0.1:1"],
    ]);
    assert.equal(durable.code, 1, durable.stderr);
    assert.match(durable.stderr, /Cannot reach Restate at http:\/\/127\.0\.0\.1:1/);
    const gateway = await runIn(app.dir, bin, ["serve", "--mcp"]);
    assert.equal(gateway.code, 2, gateway.stderr);
    assert.match(
      gateway.stderr,
      /The gateway \(serve --mcp\) needs the package @pseudoclaude\/gateway, which is not installed\..*npm install @pseudoclaude\/gateway/,
    );
    const openai = await runIn(app.dir, bin, ["run", "hi", "--provider", "openai"]);
    assert.equal(openai.code, 2, openai.stderr);
    assert.match(
      openai.stderr,
      /The openai provider needs the package @pseudoclaude\/provider-openai, which is not installed\..*npm install @pseudoclaude\/provider-openai/,
    );
  });
});
