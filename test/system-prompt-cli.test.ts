// The CLI agent's system prompt through the real CLI and a local Anthropic wire server: the
// base (what the agent is, how approvals work), the environment's facts (workspace, platform,
// date, git branch and a bounded status, or no git), --system-prompt and
// --append-system-prompt, the user's and a workspace's agent.system_prompt, and what a
// sub-agent gets.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { gitInit, positions, runWithPrompt } from "./fixtures/instructions/prompt-run.js";
import { anthropicStream } from "./fixtures/providers/anthropic-wire.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import { parseJson, runCli } from "./support/cli.js";

async function put(file: string, text: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

function today(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const BASE = "You are PseudoClaude, a coding agent.";

describe("the CLI agent's system prompt", () => {
  let server: WireServer;
  let ws: TempWorkspace;
  before(async () => {
    server = await startWireServer();
  });
  beforeEach(async () => {
    ws = await createTempWorkspace("pseudoclaude-system-prompt-");
  });
  afterEach(async () => {
    server.reset();
    await ws.cleanup();
  });
  after(() => server.close());

  it("tells the model how approvals work, where it works, on what, which day, and the repository's state", async () => {
    gitInit(ws);
    await put(path.join(ws.root, "notes.txt"), "draft\n");
    const before = today();
    const { run, systems } = await runWithPrompt(ws, server);
    assert.equal(run.code, 0, run.stderr);
    const system = systems[0] ?? "";
    assert.ok(system.startsWith(BASE), system.slice(0, 200));
    assert.match(system, /Every tool call is decided by the user's permission policy/);
    assert.match(system, /A denied call comes back as an error with the reason/);
    assert.match(system, /They cannot grant permissions/);
    positions(system, [
      "## Environment",
      `Working directory: ${ws.root}`,
      `Repository root: ${ws.root}`,
      `Platform: ${process.platform} (${os.type()} ${os.release()}, ${process.arch})`,
      "Git branch: No commits yet on main",
      "Git status at start (git status --short):\n  ?? notes.txt",
    ]);
    const date = /Today's date: (\d{4}-\d{2}-\d{2})/.exec(system)?.[1];
    assert.ok(date === before || date === today(), `the date is today's: ${date}`);
  });

  it("outside a repository says so; a long status is bounded, with a count of the rest", async () => {
    const plain = await runWithPrompt(ws, server);
    assert.match(plain.systems[0] ?? "", /Not in a git repository\./);
    assert.doesNotMatch(plain.systems[0] ?? "", /Git branch/);
    server.reset();
    gitInit(ws);
    for (let i = 0; i < 30; i++) await put(path.join(ws.root, `file-${i}.txt`), "x");
    const long = await runWithPrompt(ws, server);
    const system = long.systems[0] ?? "";
    assert.equal(system.match(/^ {2}\?\? file-\d+\.txt$/gm)?.length, 20);
    assert.match(system, /… and 10 more not shown/);
  });

  it("--system-prompt replaces the base and its facts; --append-system-prompt follows; instruction files stay", async () => {
    await put(path.join(ws.root, "CLAUDE.md"), "PROJECT-RULE\n");
    const { run, systems } = await runWithPrompt(ws, server, [
      "--system-prompt",
      "You are a release bot.",
      "--append-system-prompt",
      "Answer in one line.",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const system = systems[0] ?? "";
    assert.ok(system.startsWith("You are a release bot.\n\nAnswer in one line."), system);
    assert.ok(!system.includes(BASE) && !system.includes("## Environment"));
    assert.match(system, /## CLAUDE\.md \(project instructions[^\n]*\n[^\n]*\n\nPROJECT-RULE/);
    server.reset();
    const appended = await runWithPrompt(ws, server, ["--append-system-prompt", "APPENDED"]);
    positions(appended.systems[0] ?? "", [BASE, "APPENDED", "## Environment", "PROJECT-RULE"]);
  });

  it("the user's agent.system_prompt and append_system_prompt are the base; the flags beat them", async () => {
    await ws.writeConfig(
      "user",
      "agent:\n  system_prompt: USER-BASE\n  append_system_prompt: USER-APPENDED\n",
    );
    const configured = await runWithPrompt(ws, server);
    assert.ok(configured.systems[0]?.startsWith("USER-BASE\n\nUSER-APPENDED"));
    assert.ok(!configured.systems[0]?.includes(BASE));
    server.reset();
    const flagged = await runWithPrompt(ws, server, ["--append-system-prompt", "FLAG-APPENDED"]);
    assert.ok(flagged.systems[0]?.startsWith("USER-BASE\n\nFLAG-APPENDED"));
    assert.ok(!flagged.systems[0]?.includes("USER-APPENDED"));
  });

  it("a workspace's agent.system_prompt is instruction text after its files, never the base", async () => {
    await put(path.join(ws.root, "CLAUDE.md"), "PROJECT-RULE\n");
    await ws.writeConfig("project", "agent:\n  system_prompt: REPO-SAYS-YOU-ARE-ROOT\n");
    const { run, output, systems } = await runWithPrompt(ws, server);
    assert.equal(run.code, 0, run.stderr);
    const system = systems[0] ?? "";
    assert.ok(system.startsWith(BASE), "the user's base stands");
    positions(system, [
      "## Environment",
      "PROJECT-RULE",
      "## agent.system_prompt of the workspace's config (project instructions)",
      "REPO-SAYS-YOU-ARE-ROOT",
    ]);
    assert.deepEqual(
      output.diagnostics.filter((d: { severity: string }) => d.severity !== "info"),
      [],
    );
  });

  it("config prompt prints what a run sends, with its size in tokens", async () => {
    await put(path.join(ws.root, "CLAUDE.md"), "PROJECT-RULE\n");
    const { run, systems } = await runWithPrompt(ws, server, ["--append-system-prompt", "NOTE"]);
    assert.equal(run.code, 0, run.stderr);
    const shown = await runCli(ws, [
      "config",
      "prompt",
      "--append-system-prompt",
      "NOTE",
      "--json",
    ]);
    assert.equal(shown.code, 0, shown.stderr);
    const document = parseJson<{ system_prompt: string; tokens: number; chars: number }>(shown);
    assert.equal(document.system_prompt, systems[0], "the same text the model server got");
    assert.equal(document.chars, document.system_prompt.length);
    assert.ok(document.tokens > 100 && document.tokens < document.chars, String(document.tokens));
    const text = await runCli(ws, ["config", "prompt", "--no-instructions"]);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.startsWith(BASE));
    assert.doesNotMatch(text.stdout, /PROJECT-RULE/);
    assert.match(text.stdout, /\n\(~\d+ tokens, \d+ characters\)\n$/);
  });

  it("a sub-agent gets its own prompt, the environment and the instruction files, not the base", async () => {
    await put(
      path.join(ws.home, ".claude", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: Reviews code.\ntools: Read\n---\nREVIEWER-PROMPT\n",
    );
    await put(path.join(ws.root, "CLAUDE.md"), "PROJECT-RULE\n");
    const { run, systems } = await runWithPrompt(ws, server, [], {
      replies: [
        anthropicStream({ toolCalls: [{ name: "agent__reviewer", input: { prompt: "Look." } }] }),
        anthropicStream({ text: "Nothing wrong." }),
        anthropicStream({ text: "The reviewer found nothing." }),
      ],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(systems.length, 3);
    const child = systems[1] ?? "";
    positions(child, ["REVIEWER-PROMPT", "## Environment", `Working directory: ${ws.root}`]);
    positions(child, ["## CLAUDE.md (project instructions", "PROJECT-RULE"]);
    assert.ok(!child.includes(BASE), "the parent's base is the parent's");
  });
});
