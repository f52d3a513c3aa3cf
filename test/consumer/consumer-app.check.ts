// A user's app on the packed packages: every public workspace package is packed and installed
// from its tarball into a new app made with TypeScript 6's `tsc --init`, whose code uses each
// entry point, each plugin and both providers. It must type-check under those defaults with no
// casts and no `any`, then run offline against local servers speaking the OpenAI and Anthropic
// wire formats. Run by `.ci/run` (installing takes a minute), not by `npm test`.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { consentDigest } from "@pseudoclaude/core/consent";
import { wireToolName } from "@pseudoclaude/core/provider";
import { anthropicStream } from "../fixtures/providers/anthropic-wire.js";
import { chatStream, openaiError } from "../fixtures/providers/openai-wire.js";
import { startWireServer, type WireServer } from "../fixtures/providers/wire-server.js";
import {
  addNodeAppSettings,
  childEnv,
  installApp,
  TSC_INIT_DEFAULTS,
  tscInit,
  writeManifest,
} from "../support/consumer-app.js";
import { packWorkspaces } from "../support/pack-workspaces.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
const SOURCES = path.join(ROOT, "test", "fixtures", "consumer-app", "src");
const NOTES = "Buy milk.\nCall the plumber.\n";

async function versionOf(manifest: string, section: string, name: string): Promise<string> {
  const json = JSON.parse(await readFile(path.join(ROOT, manifest), "utf8"));
  const version = json[section]?.[name];
  assert.ok(typeof version === "string", `${manifest} has no ${section} ${name}`);
  return version;
}

/** The app's code lines, comments left out, for the "no casts, no any" rule. */
async function codeLines(folder: string): Promise<Array<{ file: string; line: string }>> {
  const lines: Array<{ file: string; line: string }> = [];
  for (const file of await readdir(folder)) {
    const text = (await readFile(path.join(folder, file), "utf8")).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const line of text.split("\n")) {
      const code = line.replace(/\/\/.*$/, "").trim();
      if (code) lines.push({ file, line: code });
    }
  }
  return lines;
}

describe("an app on the packed packages, with TypeScript 6's tsc --init defaults", () => {
  let base: string;
  let app: string;
  let openaiServer: WireServer;
  let anthropicServer: WireServer;

  before(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-consumer-"));
    app = path.join(base, "app");
    await mkdir(path.join(base, "tarballs"));
    await mkdir(app);
    openaiServer = await startWireServer("/v1");
    anthropicServer = await startWireServer();
  });

  after(async () => {
    await openaiServer?.close();
    await anthropicServer?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("packs every public package and installs the tarballs into a new app", {
    timeout: 300_000,
  }, async () => {
    const packed = await packWorkspaces(ROOT, path.join(base, "tarballs"), childEnv());
    const names = packed.map((entry) => entry.name);
    for (const expected of [
      "@pseudoclaude/core",
      "@pseudoclaude/testing",
      "@pseudoclaude/plugin-mcp",
      "@pseudoclaude/provider-openai",
      "@pseudoclaude/provider-anthropic",
    ])
      assert.ok(names.includes(expected), `${expected} was packed (got ${names.join(", ")})`);

    const options = await tscInit(TSC, app);
    for (const [option, value] of Object.entries(TSC_INIT_DEFAULTS))
      assert.deepEqual(options[option], value, `tsc --init sets ${option}`);
    await addNodeAppSettings(app);
    await writeManifest(app, packed, {
      // The app's own imports beyond ours: zod for its tool's input schema.
      dependencies: { zod: await versionOf("packages/core/package.json", "dependencies", "zod") },
      devDependencies: {
        "@types/node": await versionOf("package.json", "devDependencies", "@types/node"),
      },
    });
    await installApp(app, SOURCES);
    await writeFile(path.join(app, "notes.txt"), NOTES);
  });

  it("type-checks with no casts and no any", { timeout: 120_000 }, async () => {
    for (const { file, line } of await codeLines(path.join(app, "src"))) {
      assert.doesNotMatch(line, /\bany\b/, `${file}: ${line}`);
      assert.doesNotMatch(line, /\bas\s+(?!const\b)[\w{[(]/, `${file}: ${line}`);
      assert.doesNotMatch(line, /@ts-(ignore|expect-error|nocheck)/, `${file}: ${line}`);
    }
    const compiled = await run(process.execPath, [TSC, "-p", app], { cwd: app }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    assert.equal(compiled, "", `tsc reported:\n${compiled}`);
  });

  it("runs offline: both providers, an async approver, a typed model error", {
    timeout: 120_000,
  }, async () => {
    openaiServer.reply(
      chatStream({ toolCalls: [{ name: "shout", input: { word: "hi" } }] }),
      chatStream({ text: "It says HI." }),
      openaiError(429, { message: "Slow down.", type: "rate_limit_exceeded" }),
    );
    anthropicServer.reply(anthropicStream({ text: "Hello from Claude." }));
    const env = {
      ...childEnv(),
      APP_OPENAI_URL: openaiServer.baseURL,
      APP_ANTHROPIC_URL: anthropicServer.baseURL,
    };
    const { stdout } = await run(process.execPath, [path.join("dist", "main.js")], {
      cwd: app,
      env,
      timeout: 100_000,
    });
    const report = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");

    assert.deepEqual(report.openaiRun, {
      text: "It says HI.",
      stopReason: "end_turn",
      calls: [{ name: "shout", approval: "approved", ok: true }],
    });
    // The tool's answer went back to the model in the OpenAI wire format.
    const toolMessage = openaiServer.requests[1]?.body.messages.find(
      (message: { role: string }) => message.role === "tool",
    );
    assert.equal(toolMessage?.content, "HI");
    assert.deepEqual(report.anthropicRun, {
      text: "Hello from Claude.",
      stopReason: "end_turn",
      calls: [],
    });
    assert.equal(anthropicServer.requests[0]?.path, "/v1/messages");
    assert.equal(report.modelErrorCode, "rate_limited");

    assert.equal(report.scriptedRun.text, "read the notes");
    assert.deepEqual(report.scriptedRun.calls, [{ name: "read_file", ok: true }]);
    assert.match(report.scriptedRun.readText, /Call the plumber\./);
    for (const tool of ["shout", "read_file", "write_file"])
      assert.ok(report.scriptedRun.offered.includes(tool), `${tool} is offered`);

    assert.deepEqual(report.facts, {
      // The installed packages answer as the repository's own code does.
      wireName: wireToolName("mcp__docs.v2__search"),
      digestLength: consentDigest({ server: "docs" }).length,
      confined: true,
      processOutput: "ran",
      compat: "claude-code",
      configExitCode: 2,
      durableObject: "pseudoclaude",
      durableClient: true,
    });
    assert.deepEqual(report.newApis, {
      text: "seven letters",
      counted: "7",
      first: "run-start",
      last: "run-end",
      model: "model-from-code",
    });
    assert.equal(openaiServer.pending() + anthropicServer.pending(), 0, "every reply was used");
  });
});
