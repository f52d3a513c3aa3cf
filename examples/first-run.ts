// `npm start`: one real agent end to end. A real MCP server over stdio (the official filesystem
// server, installed from npm), the built-in tools and the Skills plugin with a skill shipped in
// this repository (examples/skills/release-checklist) feed one registry; the agent checks that a
// small project in a temporary workspace is ready for release. With ANTHROPIC_API_KEY or
// OPENAI_API_KEY set a real model does the work; without one a scripted model plays the same
// steps offline.
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Agent, createAgent, type Provider, textOf } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { skills } from "@pseudoclaude/plugin-skills";
import { anthropic } from "@pseudoclaude/provider-anthropic";
import { openai } from "@pseudoclaude/provider-openai";
import { ScriptedProvider } from "@pseudoclaude/testing";

const filesystemServer = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-filesystem/dist/index.js",
);
// From examples/dist to examples/skills.
const skillFolder = fileURLToPath(new URL("../skills", import.meta.url));
const TASK =
  "Is this project ready to release its current version? List the workspace with the filesystem server, read package.json for the version, then follow the release-checklist skill.";

/** A real model when a key is set; otherwise the scripted steps, said plainly. */
function chooseProvider(workspace: string): { provider: Provider; offline: boolean } {
  if (process.env.ANTHROPIC_API_KEY) return { provider: anthropic(), offline: false };
  if (process.env.OPENAI_API_KEY) return { provider: openai(), offline: false };
  const provider = new ScriptedProvider([
    { tool_calls: [{ name: "mcp__filesystem__list_directory", arguments: { path: workspace } }] },
    { tool_calls: [{ name: "read_file", arguments: { path: "package.json" } }] },
    {
      expect: { system_includes: ["- release-checklist:"] },
      tool_calls: [{ name: "load_skill", arguments: { name: "release-checklist" } }],
    },
    {
      tool_calls: [
        {
          name: "read_skill_file",
          arguments: { skill: "release-checklist", path: "references/changelog-format.md" },
        },
      ],
    },
    {
      tool_calls: [
        { name: "skill__release-checklist__check-changelog", arguments: { args: ["1.2.0"] } },
      ],
    },
    {
      text: "Version 1.2.0 is ready to release: package.json says 1.2.0 and CHANGELOG.md has its entry, in the house format.",
    },
  ]);
  return { provider, offline: true };
}

async function makeWorkspace(): Promise<string> {
  // Real path: the filesystem server compares the paths it is given with its allowed folder.
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-start-")));
  await writeFile(
    path.join(workspace, "package.json"),
    `${JSON.stringify({ name: "tiny-lib", version: "1.2.0" }, null, 2)}\n`,
  );
  await writeFile(
    path.join(workspace, "CHANGELOG.md"),
    "## 1.2.0 - 2026-12-01\n- Add the `shout` function.\n\n## 1.1.0 - 2026-11-02\n- First release.\n",
  );
  await writeFile(path.join(workspace, "index.js"), "export const shout = (s) => `${s}!`;\n");
  return workspace;
}

function printSources(agent: Agent): void {
  console.log("Tools by source:");
  const bySource = new Map<string, string[]>();
  for (const tool of agent.registry.definitions())
    bySource.set(tool.source, [...(bySource.get(tool.source) ?? []), tool.name]);
  for (const [source, names] of bySource)
    console.log(`  ${source} (${names.length}): ${names.join(", ")}`);
  const totals: Record<string, number> = {};
  for (const source of agent.sources()) {
    if (!source.id.startsWith("mcp:")) continue;
    for (const [counter, value] of Object.entries(source.status.stats))
      totals[counter] = (totals[counter] ?? 0) + value;
  }
  console.log(
    `  MCP totals: ${Object.entries(totals)
      .map(([counter, value]) => `${counter}=${value}`)
      .join(" ")}`,
  );
}

function oneLine(text: string, max = 110): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

const workspace = await makeWorkspace();
const { provider, offline } = chooseProvider(workspace);
if (offline) {
  console.log(
    "Offline demo: no ANTHROPIC_API_KEY or OPENAI_API_KEY is set, so a scripted model plays the steps a real one would take.\nTo use a real model: ANTHROPIC_API_KEY=... npm start (or OPENAI_API_KEY=...).\n",
  );
} else {
  console.log(`Using ${provider.name} (${provider.model}).\n`);
}
const agent = await createAgent({
  workspace,
  config: false,
  provider,
  plugins: [
    mcp({
      servers: {
        // The server's readOnlyHint annotations are trusted for this one official server.
        filesystem: {
          command: process.execPath,
          args: [filesystemServer, workspace],
          trust_annotations: true,
        },
      },
    }),
    builtinTools(),
    skills({ paths: [skillFolder], watch: false }),
  ],
});
let failed = false;
try {
  printSources(agent);
  console.log(`\nWorkspace: ${workspace}\n\nuser> ${TASK}\n`);
  agent.on("tool-call-end", ({ record }) => {
    const status = record.result.ok ? "ok" : `failed (${record.result.error.code})`;
    console.log(
      `  tool ${record.name} ${oneLine(JSON.stringify(record.arguments), 70)}\n    decision: ${record.decision.verdict} (${oneLine(record.decision.reason, 90)})\n    result: ${status}: ${oneLine(textOf(record.result.content))}`,
    );
  });
  agent.on("turn-end", ({ text }) => {
    if (text.trim()) console.log(`assistant> ${text.trim()}\n`);
  });
  const result = await agent.run(TASK);
  const usage = Object.entries(result.usage)
    .map(([counter, value]) => `${counter}=${value}`)
    .join(" ");
  console.log(
    `Turns: ${result.turns}, stop: ${result.stopReason}, usage: ${usage || "none reported"}`,
  );
  const used = new Set(result.toolCalls.map((call) => call.name.split("__")[0]));
  failed = result.stopReason !== "end_turn" || result.toolCalls.some((call) => !call.result.ok);
  if (offline) failed ||= !(used.has("mcp") && used.has("read_file") && used.has("skill"));
} finally {
  await agent.close();
  await rm(workspace, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
