// Real users' Claude Code files, from public repositories (test/fixtures/claude-code-corpus,
// see its PROVENANCE.md): every agent file Claude Code loads, loads here with the same name and
// tools, including those whose front matter only Claude Code's lenient retry reads
// (`description: … Triggers on: …`); files Claude Code cannot read either are skipped with
// file, line and column; SKILL.md files load in the Skills plugin; and each agent's `model`
// resolves by the rule of docs/subagents.md.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { readFrontMatter } from "@pseudoclaude/compat-claude-code";
import { createAgent, type Diagnostic } from "@pseudoclaude/core";
import { agents, loadAgentFiles } from "@pseudoclaude/plugin-agents";
import { parseSkillFile } from "@pseudoclaude/plugin-skills";
import { ScriptedProvider } from "@pseudoclaude/testing";

const CORPUS = path.resolve(import.meta.dirname, "..", "fixtures", "claude-code-corpus");

interface Expected {
  agents: Record<string, { name: string; tools: string[] | null; model: string | null }>;
  skills: Record<string, { name: string }>;
}

const expected = JSON.parse(await readFile(path.join(CORPUS, "expected.json"), "utf8")) as Expected;

/** A home whose `.claude/agents` is one folder of the corpus, as a user would have it. */
async function homeWith(folder: string): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(path.join(os.tmpdir(), "pc-corpus-"));
  await mkdir(path.join(home, ".claude"), { recursive: true });
  await symlink(path.join(CORPUS, "agents", folder), path.join(home, ".claude", "agents"));
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
}

async function load(folder: string) {
  const { home, cleanup } = await homeWith(folder);
  const workspace = await mkdtemp(path.join(os.tmpdir(), "pc-corpus-ws-"));
  try {
    const diagnostics: Diagnostic[] = [];
    const files = loadAgentFiles(workspace, (d) => diagnostics.push(d), home);
    return { files, diagnostics };
  } finally {
    await cleanup();
    await rm(workspace, { recursive: true, force: true });
  }
}

const REPOSITORIES = ["VoltAgent-awesome-claude-code-subagents", "wshobson-agents"];

describe("the Claude Code corpus", () => {
  for (const repository of REPOSITORIES)
    it(`loads every agent file of ${repository} with Claude Code's name and tools`, async () => {
      const { files, diagnostics } = await load(repository);
      const wanted = Object.entries(expected.agents).filter(([key]) =>
        key.startsWith(`${repository}/`),
      );
      assert.ok(wanted.length > 0);
      assert.deepEqual(
        diagnostics.filter((d) => d.severity === "error"),
        [],
        "no file is skipped",
      );
      for (const [key, want] of wanted) {
        const file = files.find((f) => path.basename(f.file) === path.basename(key));
        assert.ok(file, `${key} loads`);
        assert.equal(file.name, want.name, key);
        assert.deepEqual(file.tools ?? null, want.tools, `${key}: tools`);
        assert.equal(file.model ?? null, want.model, `${key}: model`);
        assert.ok(file.instructions.length > 0, `${key}: instructions`);
      }
      assert.equal(files.length, wanted.length);
    });

  it("reads the files with unquoted colons as Claude Code does, description and all", async () => {
    const folder = path.join(CORPUS, "agents", "VoltAgent-awesome-claude-code-subagents");
    const { files } = await load("VoltAgent-awesome-claude-code-subagents");
    const lenient: string[] = [];
    const names = (await readdir(folder)).filter((name) => name.endsWith(".md")).sort();
    for (const name of names) {
      const text = await readFile(path.join(folder, name), "utf8");
      const read = readFrontMatter(text);
      assert.equal(read.kind, "ok", name);
      if (read.kind !== "ok" || !read.frontMatter.lenient) continue;
      lenient.push(name);
      // The description is the text of its line, colons included.
      const line = /^description: (.*)$/m.exec(text)?.[1];
      assert.equal(files.find((f) => path.basename(f.file) === name)?.description, line?.trim());
    }
    assert.deepEqual(lenient, [
      "ab-test-analysis.md",
      "assumption-mapping.md",
      "backlog-grooming.md",
      "cohort-analysis.md",
      "first-principles-thinking.md",
      "gdpr-ccpa-compliance.md",
      "growth-loops.md",
      "hipaa-compliance.md",
    ]);
  });

  it("skips the files Claude Code cannot read either, naming file, line and column", async () => {
    const { files, diagnostics } = await load("broken");
    assert.deepEqual(files, []);
    const skipped = diagnostics
      .map((d) => [path.basename(d.file ?? ""), d.code, d.line, d.column] as const)
      .sort();
    assert.deepEqual(skipped, [
      ["c-pro-continued.md", "agent_invalid", 3, 14],
      ["debugger-unclosed-quote.md", "agent_invalid", 5, 1],
      ["javascript-pro-twice.md", "agent_invalid", 4, 1],
    ]);
    for (const diagnostic of diagnostics)
      assert.match(
        diagnostic.message,
        new RegExp(
          `${path.basename(diagnostic.file ?? "")}:${diagnostic.line}:${diagnostic.column}: `,
        ),
      );
  });

  it("warns once for the agent whose model is no id, alias or inherit", async () => {
    const { diagnostics } = await load("wshobson-agents");
    const models = diagnostics.filter((d) => d.code === "agent_model_inherited");
    assert.deepEqual(
      models.map((d) => [path.basename(d.file ?? ""), d.severity]),
      [["legacy-modernizer.md", "warning"]],
    );
    // Tools Claude Code has and we do not are left out, each named once.
    const unknown = diagnostics.filter((d) => d.code === "agent_tool_unknown");
    assert.deepEqual(
      unknown.map((d) => /Tool "([^"]+)"/.exec(d.message)?.[1]),
      ["TaskList", "TaskGet", "TaskUpdate", "SendMessage"],
    );
  });

  it("runs aliases on the family's Claude model with a Claude parent, nicknames on the parent's", async () => {
    const { home, cleanup } = await homeWith("wshobson-agents");
    const workspace = await mkdtemp(path.join(os.tmpdir(), "pc-corpus-ws-"));
    const call = (name: string) => ({
      tool_calls: [{ name: `agent__${name}`, arguments: { prompt: "go" } }],
    });
    const provider = new ScriptedProvider(
      [
        call("c-pro"),
        { text: "opus done" },
        call("framework-migration-legacy-modernizer"),
        { text: "fable done" },
        call("unit-testing-debugger"),
        { text: "sonnet done" },
        call("javascript-pro"),
        { text: "inherit done" },
        { text: "all done" },
      ],
      { model: "claude-sonnet-5-5" },
    );
    const agent = await createAgent({
      workspace,
      config: false,
      provider,
      policy: { mode: "bypass" },
      plugins: [agents({ homeDir: home })],
    });
    try {
      const result = await agent.run("delegate");
      assert.equal(result.text, "all done");
      assert.deepEqual(
        provider.requests.map((request) => request.model),
        [
          "claude-sonnet-5-5",
          "claude-opus-5-5", // opus
          "claude-sonnet-5-5",
          "claude-sonnet-5-5", // fable: the parent's
          "claude-sonnet-5-5",
          "claude-sonnet-5-5", // sonnet: the parent is one
          "claude-sonnet-5-5",
          "claude-sonnet-5-5", // inherit
          "claude-sonnet-5-5",
        ],
      );
    } finally {
      await agent.close();
      await cleanup();
      await rm(workspace, { recursive: true, force: true });
    }
  });

  it("loads every SKILL.md with its name", async () => {
    for (const [key, want] of Object.entries(expected.skills)) {
      const file = path.join(CORPUS, "skills", key, "SKILL.md");
      const parsed = parseSkillFile(await readFile(file, "utf8"), {
        file,
        folderName: path.basename(key),
      });
      assert.equal(parsed.ok, true, key);
      if (!parsed.ok) continue;
      assert.equal(parsed.skill.name, want.name);
      assert.deepEqual(parsed.warnings, [], key);
    }
  });
});
