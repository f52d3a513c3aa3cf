import assert from "node:assert/strict";
import { cp } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { parseJson, runCli, withWorkspace } from "./support/cli.js";

// The repository's skill fixtures, read from the sources (tsc copies no Markdown).
const SKILLS = fileURLToPath(new URL("../../../../test/fixtures/skills/", import.meta.url));

async function addSkills(workspace: TempWorkspace, layer: "project" | "user", names: string[]) {
  const root = path.join(
    layer === "project" ? workspace.root : workspace.home,
    ".claude",
    "skills",
  );
  for (const name of names)
    await cp(path.join(SKILLS, name), path.join(root, name), { recursive: true });
}

interface SkillsJson {
  skills: Array<{
    name: string;
    layer: string;
    path: string | null;
    state: string;
    model_invocable: boolean;
    allowed_tools: string[];
    permissions: string[];
    allowed_tools_honoured: boolean;
    diagnostics: Array<{ code: string; line?: number }>;
  }>;
  totals: Record<string, number>;
  diagnostics: Array<{ code?: string }>;
}

describe("pseudoclaude skills", () => {
  it("lists every skill with its layer, path, state, allowed tools and diagnostics", async () => {
    await withWorkspace(async (workspace) => {
      await addSkills(workspace, "project", ["pdf-processing", "bad-yaml"]);
      await addSkills(workspace, "user", ["release-notes", "commit-helper"]);
      await workspace.writeConfig("user", "skills:\n  disabled: [commit-helper]\n");
      const result = await runCli(workspace, ["skills", "--json"]);
      assert.equal(result.code, 0, result.stderr);
      const json = parseJson<SkillsJson>(result);
      assert.deepEqual(Object.keys(json), ["skills", "totals", "diagnostics"]);
      assert.deepEqual(
        json.skills.map((skill) => [skill.name, skill.layer, skill.state]),
        [
          ["bad-yaml", "project", "invalid"],
          ["pdf-processing", "project", "available"],
          ["commit-helper", "user", "disabled"],
          ["release-notes", "user", "available"],
        ],
      );
      const pdf = json.skills.find((skill) => skill.name === "pdf-processing");
      assert.equal(pdf?.path, path.join(workspace.root, ".claude/skills/pdf-processing/SKILL.md"));
      assert.deepEqual(pdf?.allowed_tools, ["Bash(git log:*)", "Read"]);
      assert.deepEqual(pdf?.permissions, ["run_command(git log*)", "read_file"]);
      assert.equal(pdf?.allowed_tools_honoured, false, "a project skill is not trusted by default");
      const notes = json.skills.find((skill) => skill.name === "release-notes");
      assert.equal(notes?.model_invocable, false);
      assert.equal(notes?.allowed_tools_honoured, true, "a user skill is the user's own");
      assert.deepEqual(
        notes?.diagnostics.map((diagnostic) => diagnostic.code),
        ["skill_allowed_tool_unmapped"],
        "WebFetch has no equivalent",
      );
      const broken = json.skills.find((skill) => skill.name === "bad-yaml");
      assert.deepEqual(
        broken?.diagnostics.map((d) => [d.code, d.line]),
        [["skill_yaml_error", 4]],
      );
      assert.deepEqual(json.totals, {
        skills: 4,
        available: 2,
        loaded: 0,
        disabled: 1,
        invalid: 1,
      });
    });
  });

  it("prints a table for people and says where skills go when there are none", async () => {
    await withWorkspace(async (workspace) => {
      const empty = await runCli(workspace, ["skills"]);
      assert.equal(empty.code, 0);
      assert.match(
        empty.stdout,
        /No skills\. Put skill folders \(each with a SKILL\.md\) in \.PseudoClaude\/skills/,
      );
      await addSkills(workspace, "project", ["pdf-processing"]);
      const listed = await runCli(workspace, ["skills"]);
      assert.match(listed.stdout, /^NAME +LAYER +STATE +ALLOWED TOOLS +DESCRIPTION$/m);
      assert.match(
        listed.stdout,
        /^pdf-processing +project +available +\(not trusted\) run_command\(git log\*\) read_file +Extract text/m,
      );
      assert.match(listed.stdout, /^ {4}\.claude\/skills\/pdf-processing\/SKILL\.md$/m);
      assert.match(listed.stdout, /Skills: 1 \(1 available, 0 loaded, 0 disabled, 0 invalid\)/);
    });
  });

  it("shows the skill tools under their own source in pseudoclaude tools", async () => {
    await withWorkspace(async (workspace) => {
      await addSkills(workspace, "project", ["pdf-processing"]);
      const result = await runCli(workspace, ["tools", "--json"]);
      assert.equal(result.code, 0, result.stderr);
      const json = parseJson<{
        tools: Array<{ name: string; source: string; offered: boolean }>;
        sources: Array<{ id: string; stats: Record<string, number> }>;
      }>(result);
      assert.deepEqual(
        json.tools
          .filter((tool) => tool.source === "skills")
          .map((tool) => [tool.name, tool.offered]),
        [
          ["load_skill", true],
          ["read_skill_file", true],
          ["unload_skill", true],
        ],
      );
      assert.deepEqual(json.sources.find((source) => source.id === "skills")?.stats, {
        skills: 1,
        available: 1,
        loaded: 0,
        disabled: 0,
        invalid: 0,
        tools: 3,
      });
      const text = await runCli(workspace, ["tools"]);
      assert.match(
        text.stdout,
        /^ {2}skills {2}ready {2}skills=1 available=1 loaded=0 disabled=0 invalid=0 tools=3$/m,
      );
    });
  });

  it("runs a scripted model through the index, load_skill, read_skill_file and the skill's script", async () => {
    await withWorkspace(async (workspace) => {
      await addSkills(workspace, "project", ["pdf-processing"]);
      await workspace.write(
        "script.json",
        JSON.stringify([
          {
            expect: {
              system_includes: ["- pdf-processing: Extract text and tables from PDF files"],
              tools: ["load_skill"],
            },
            tool_calls: [{ name: "load_skill", arguments: { name: "pdf-processing" } }],
          },
          {
            expect: { tools: ["read_skill_file", "skill__pdf-processing__extract"] },
            tool_calls: [
              {
                name: "read_skill_file",
                arguments: { skill: "pdf-processing", path: "references/REFERENCE.md" },
              },
            ],
          },
          {
            tool_calls: [
              { name: "skill__pdf-processing__extract", arguments: { args: ["report.pdf"] } },
            ],
          },
          { text: "The PDF has a title, an author and pages." },
        ]),
      );
      const result = await runCli(workspace, [
        "run",
        "Summarise report.pdf",
        "--script",
        "script.json",
        "--yes",
        "--json",
      ]);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const json = parseJson<{
        text: string;
        stop_reason: string;
        tool_calls: Array<{
          name: string;
          decision: string;
          result: { ok: boolean; content: Array<{ text?: string }> };
        }>;
      }>(result);
      assert.equal(json.stop_reason, "end_turn");
      assert.equal(json.text, "The PDF has a title, an author and pages.");
      assert.deepEqual(
        json.tool_calls.map((call) => [call.name, call.decision, call.result.ok]),
        [
          ["load_skill", "allow", true],
          ["read_skill_file", "allow", true],
          ["skill__pdf-processing__extract", "ask", true],
        ],
      );
      const [load, read, extract] = json.tool_calls.map(
        (call) => call.result.content[0]?.text ?? "",
      );
      assert.match(load ?? "", /Procedure:\n\n# PDF processing/);
      assert.match(read ?? "", /Fields: title, author, pages\./);
      assert.match(
        extract ?? "",
        /extract: report\.pdf\nskill dir: .*\.claude\/skills\/pdf-processing\n\[Exit code 0\.\]/,
      );
    });
  });
});
