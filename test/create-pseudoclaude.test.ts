// `npm create pseudoclaude` as a user would meet it, from the packed tarballs: npm runs the
// create package's bin from its tarball, the starter app it writes installs the
// `@pseudoclaude/*` tarballs (none is on the registry yet) and its pinned third-party packages,
// type-checks under its own TypeScript 6 `tsc --init`-style config, and `npm test` and
// `npm start` pass offline (no API key: the scripted model). Nothing is left running.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { markedProcesses, markerEnv, newMarker } from "@pseudoclaude/testing/system";
import { packAll, publishablePackages } from "./support/package-tarballs.js";

const CREATE = "create-pseudoclaude";
const packages = publishablePackages();
const version = packages.find((pkg) => pkg.name === "@pseudoclaude/core")?.manifest.version;

/** The user's npm cache: the runner's HOME is a temporary one (see package-tarballs.ts). */
const npmCache = process.env.npm_config_cache ?? path.join(os.userInfo().homedir, ".npm");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A command in `cwd` with the API keys removed (the offline path is what is tested) and a
 * marker in its environment, so whatever it starts can be found afterwards.
 */
function run(
  cwd: string,
  command: string,
  args: readonly string[],
  marker: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...markerEnv(marker), NO_COLOR: "1" };
  for (const key of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PSEUDOCLAUDE_PROVIDER"])
    delete env[key];
  Object.assign(env, extraEnv);
  // Set by this test runner for its children; the starter's own `node --test` would then
  // report to it in its binary protocol instead of printing its summary.
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve) => {
    execFile(
      command,
      [...args],
      { cwd, env, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function shown(result: Run): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

describe("npm create pseudoclaude, from the packed tarballs", { timeout: 600_000 }, () => {
  let root: string;
  let tarballs: Map<string, string>;
  let app: string;
  const marker = newMarker();

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-create-"));
    const tarballDir = path.join(root, "tarballs");
    await mkdir(tarballDir);
    tarballs = await packAll(packages, tarballDir);
    app = path.join(root, "my-agent");
  });
  after(async () => {
    const left = markedProcesses(marker);
    for (const pid of left) process.kill(pid, "SIGKILL");
    if (root) await rm(root, { recursive: true, force: true });
    assert.deepEqual(left, [], "no process outlives the test");
  });

  it("runs the create bin from its tarball: the starter's files, its exact versions, next steps", async () => {
    const tarball = tarballs.get(CREATE);
    assert.ok(tarball, `${CREATE} is packed`);
    // What `npm create pseudoclaude@latest my-agent` does, with the tarball for the registry.
    const created = await run(
      root,
      "npm",
      ["exec", "--yes", `--package=${tarball}`, "--cache", npmCache, "--", CREATE, "my-agent"],
      marker,
    );
    assert.equal(created.code, 0, shown(created));
    assert.match(created.stdout, /Created my-agent in my-agent/);
    assert.match(created.stdout, /cd my-agent\n {2}npm install && npm start/);
    for (const file of [
      "package.json",
      "tsconfig.json",
      "README.md",
      ".gitignore",
      "src/agent.ts",
      "src/main.ts",
      "test/agent.test.ts",
      "skills/project-tour/SKILL.md",
    ])
      assert.ok(existsSync(path.join(app, file)), `the starter has ${file}`);
    const manifest = JSON.parse(await readFile(path.join(app, "package.json"), "utf8"));
    assert.equal(manifest.name, "my-agent");
    const ours = Object.entries(manifest.dependencies).filter(([name]) =>
      name.startsWith("@pseudoclaude/"),
    );
    assert.ok(ours.length >= 5, JSON.stringify(manifest.dependencies));
    for (const [name, range] of ours) assert.equal(range, version, `${name} at ${version}`);
    const tsconfig = await readFile(path.join(app, "tsconfig.json"), "utf8");
    for (const option of ["exactOptionalPropertyTypes", "verbatimModuleSyntax", '"strict"'])
      assert.match(tsconfig, new RegExp(`${option}"?: true`));
  });

  it("refuses a folder that is not empty, with exit code 2, and writes nothing", async () => {
    const before = await readFile(path.join(app, "README.md"), "utf8");
    const again = await run(
      root,
      "npm",
      ["exec", "--yes", `--package=${tarballs.get(CREATE)}`, "--cache", npmCache, "--", CREATE],
      marker,
    );
    assert.equal(again.code, 2, shown(again));
    // npm exec adds its own lines; the create bin's is the one naming the folder.
    const refused = await run(
      root,
      "npm",
      [
        ...["exec", "--yes", `--package=${tarballs.get(CREATE)}`, "--cache", npmCache],
        ...["--", CREATE, "my-agent", "--yes"],
      ],
      marker,
    );
    assert.equal(refused.code, 2, shown(refused));
    assert.match(refused.stderr, /create-pseudoclaude: .*my-agent is not empty \(/);
    assert.equal(await readFile(path.join(app, "README.md"), "utf8"), before);
  });

  it("installs, type-checks under its own strict tsconfig, and passes npm test and npm start offline", async (t) => {
    // Each `@pseudoclaude/*` dependency becomes its tarball, as the registry would serve it.
    const manifest = JSON.parse(await readFile(path.join(app, "package.json"), "utf8"));
    const spec = (name: string) => `file:${tarballs.get(name)}`;
    for (const name of Object.keys(manifest.dependencies))
      if (tarballs.has(name)) manifest.dependencies[name] = spec(name);
    manifest.overrides = Object.fromEntries(
      [...tarballs.keys()]
        .filter((name) => name.startsWith("@pseudoclaude/"))
        .map((name) => [name, spec(name)]),
    );
    await writeFile(path.join(app, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);

    let started = Date.now();
    const installed = await run(
      app,
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--cache", npmCache],
      marker,
    );
    assert.equal(installed.code, 0, shown(installed));
    t.diagnostic(`npm install: ${Math.round((Date.now() - started) / 1000)} s`);

    const checked = await run(
      app,
      path.join(app, "node_modules", ".bin", "tsc"),
      ["--noEmit"],
      marker,
    );
    assert.equal(checked.code, 0, shown(checked));

    started = Date.now();
    const tested = await run(app, "npm", ["test"], marker);
    assert.equal(tested.code, 0, shown(tested));
    assert.match(tested.stdout, /# pass 2\n/);
    assert.match(tested.stdout, /# fail 0\n/);
    t.diagnostic(`npm test: ${Math.round((Date.now() - started) / 1000)} s`);

    started = Date.now();
    const startedRun = await run(app, "npm", ["start"], marker);
    assert.equal(startedRun.code, 0, shown(startedRun));
    assert.match(startedRun.stdout, /Offline demo/);
    for (const line of [
      /mcp__filesystem__list_directory \[allow\] ok: /,
      /load_skill \[allow\] ok/,
      /word_count \[allow\] ok: \d+ words, \d+ lines/,
      /assistant> This is a PseudoClaude starter/,
    ])
      assert.match(startedRun.stdout, line);
    t.diagnostic(`npm start: ${Math.round((Date.now() - started) / 1000)} s`);

    // A provider named by the environment reaches the registry: the OpenAI one, which says
    // which key it lacks instead of falling back to the demo.
    const named = await run(app, "node", ["dist/src/main.js"], marker, {
      PSEUDOCLAUDE_PROVIDER: "openai:gpt-5.4-mini",
    });
    assert.equal(named.code, 1, shown(named));
    assert.doesNotMatch(named.stdout, /Offline demo/);
    assert.match(
      named.stderr,
      /^ConfigError \(missing_api_key\): No API key for the OpenAI provider: set the OPENAI_API_KEY/m,
    );
  });
});
