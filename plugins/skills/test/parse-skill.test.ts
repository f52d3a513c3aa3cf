import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  mapAllowedTool,
  parseSkillFile,
  skillNameProblem,
  splitAllowedTools,
} from "../src/index.js";
import { fixtureText } from "./support/fixtures.js";

const where = (folderName: string) => ({ file: `/skills/${folderName}/SKILL.md`, folderName });

describe("reading a SKILL.md", () => {
  it("reads a skill laid out like widely shared ones, keeping every field", async () => {
    const parsed = parseSkillFile(await fixtureText("pdf-processing"), where("pdf-processing"));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.warnings, []);
    const { skill } = parsed;
    assert.equal(skill.name, "pdf-processing");
    assert.match(skill.description, /^Extract text and tables from PDF files/);
    assert.equal(skill.license, "Apache-2.0");
    assert.equal(skill.compatibility, "Needs a POSIX shell.");
    assert.deepEqual(skill.metadata, { author: "example-org", version: "1.0" });
    assert.deepEqual(skill.allowedTools, ["Bash(git log:*)", "Read"]);
    assert.equal(skill.modelInvocable, true);
    assert.ok(skill.body.startsWith("# PDF processing\n"), "front matter removed");
    assert.ok(!skill.body.includes("allowed-tools"));
  });

  it("keeps Claude Code's extra fields as data and honours disable-model-invocation", async () => {
    const parsed = parseSkillFile(await fixtureText("release-notes"), where("release-notes"));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.warnings, []);
    assert.equal(parsed.skill.modelInvocable, false);
    assert.equal(parsed.skill.fields["user-invocable"], true);
    assert.equal(parsed.skill.fields.when_to_use, "Before tagging a release.");
    assert.equal(parsed.skill.fields.model, "claude-sonnet-4");
    assert.ok(parsed.skill.fields.hooks && typeof parsed.skill.fields.hooks === "object");
    assert.deepEqual(parsed.skill.allowedTools, ["Bash(git log:*)", "Bash(git tag:*)", "WebFetch"]);
  });

  it("loads a skill whose name breaks the rules or differs from its folder, with a warning", async () => {
    const bad = parseSkillFile(await fixtureText("Bad_Name"), where("Bad_Name"));
    assert.ok(bad.ok);
    assert.equal(bad.skill.name, "Bad_Name");
    assert.deepEqual(
      bad.warnings.map((warning) => [warning.code, warning.severity, warning.line]),
      [["skill_name_invalid", "warning", 2]],
    );
    const mismatch = parseSkillFile(await fixtureText("mismatch-folder"), where("mismatch-folder"));
    assert.ok(mismatch.ok);
    assert.equal(mismatch.skill.name, "other-name");
    assert.equal(mismatch.warnings[0]?.code, "skill_name_mismatch");
    assert.match(mismatch.warnings[0]?.message ?? "", /differs from its folder "mismatch-folder"/);
  });

  it("skips front matter that does not parse, naming file, line and column", async () => {
    const parsed = parseSkillFile(await fixtureText("bad-yaml"), where("bad-yaml"));
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.equal(parsed.diagnostic.code, "skill_yaml_error");
    assert.equal(parsed.diagnostic.severity, "error");
    assert.equal(parsed.diagnostic.file, "/skills/bad-yaml/SKILL.md");
    // The quote opened on line 3 is still open where the front matter ends, on line 4: lines
    // count from the top of the file, fence included.
    assert.equal(parsed.diagnostic.line, 4);
    assert.equal(parsed.diagnostic.column, 1);
    assert.match(
      parsed.diagnostic.message,
      /SKILL\.md:4:1: the front matter is not valid YAML \(Missing closing "quote/,
    );
    const indented = parseSkillFile("---\nname: x\ndescription: ok\n  bad: [\n---\n", where("x"));
    assert.deepEqual(
      indented.ok ? [] : [indented.diagnostic.line, indented.diagnostic.column],
      [3, 14],
    );
  });

  it("loads a description with an unquoted colon, as Claude Code reads it", () => {
    const parsed = parseSkillFile(
      "---\nname: pdf\ndescription: Use when: the user mentions PDFs #important\n---\nBody\n",
      where("pdf"),
    );
    assert.equal(parsed.ok, true);
    if (!parsed.ok) return;
    assert.equal(parsed.skill.description, "Use when: the user mentions PDFs #important");
    assert.deepEqual(parsed.warnings, []);
  });

  it("skips a skill with a missing or empty description, or no front matter", async () => {
    const missing = parseSkillFile(await fixtureText("no-description"), where("no-description"));
    assert.equal(missing.ok ? "" : missing.diagnostic.code, "skill_description_missing");
    assert.match(missing.ok ? "" : missing.diagnostic.message, /"description" is missing/);
    const empty = parseSkillFile('---\nname: x\ndescription: "  "\n---\n', where("x"));
    assert.equal(empty.ok ? "" : empty.diagnostic.code, "skill_description_missing");
    assert.equal(empty.ok ? 0 : empty.diagnostic.line, 3);
    const none = parseSkillFile(await fixtureText("no-front-matter"), where("no-front-matter"));
    assert.equal(none.ok ? "" : none.diagnostic.code, "skill_no_front_matter");
    const unclosed = parseSkillFile("---\nname: x\ndescription: y\n", where("x"));
    assert.equal(unclosed.ok ? "" : unclosed.diagnostic.code, "skill_front_matter_unclosed");
    const duplicated = parseSkillFile("---\nname: x\nname: y\ndescription: z\n---\n", where("x"));
    assert.equal(
      duplicated.ok ? "" : duplicated.diagnostic.code,
      "skill_yaml_error",
      "duplicate keys are an error",
    );
    const list = parseSkillFile("---\n- a\n- b\n---\n", where("x"));
    assert.equal(list.ok ? "" : list.diagnostic.code, "skill_not_mapping");
  });

  it("warns about optional fields of the wrong shape and keeps the skill", () => {
    const text = [
      "---",
      "name: odd",
      "description: Odd fields.",
      `compatibility: ${"x".repeat(501)}`,
      "metadata: { count: 3, ok: yes-text }",
      "allowed-tools: 7",
      "---",
      "Body",
    ].join("\n");
    const parsed = parseSkillFile(text, where("odd"));
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.warnings.map((warning) => [warning.code, warning.line]),
      [
        ["skill_field_invalid", 4],
        ["skill_field_invalid", 5],
        ["skill_field_invalid", 6],
      ],
    );
    assert.deepEqual(parsed.skill.metadata, { count: "3", ok: "yes-text" });
    assert.deepEqual(parsed.skill.allowedTools, []);
  });

  it("accepts CRLF line ends and a byte-order mark", () => {
    const parsed = parseSkillFile(
      "\uFEFF---\r\nname: crlf\r\ndescription: Windows file.\r\n---\r\nBody\r\n",
      where("crlf"),
    );
    assert.ok(parsed.ok);
    assert.equal(parsed.skill.description, "Windows file.");
    assert.equal(parsed.skill.body, "Body\r\n");
  });
});

describe("skill names", () => {
  it("follow the Agent Skills rules", () => {
    assert.equal(skillNameProblem("pdf-tools-2"), undefined);
    assert.match(skillNameProblem("PDF") ?? "", /lowercase/);
    assert.match(skillNameProblem("-pdf") ?? "", /start or end/);
    assert.match(skillNameProblem("pdf--tools") ?? "", /--/);
    assert.match(skillNameProblem("a".repeat(65)) ?? "", /65 characters/);
    assert.equal(skillNameProblem("a".repeat(64)), undefined);
  });
});

describe("allowed-tools", () => {
  it("splits a string at spaces and commas outside parentheses, and takes lists as they are", () => {
    assert.deepEqual(splitAllowedTools("Bash(git log:*) Read, Grep"), [
      "Bash(git log:*)",
      "Read",
      "Grep",
    ]);
    assert.deepEqual(splitAllowedTools(["read_file", "run_command(npm test*)"]), [
      "read_file",
      "run_command(npm test*)",
    ]);
    assert.equal(splitAllowedTools({ a: 1 }), undefined);
    assert.equal(splitAllowedTools([1]), undefined);
  });

  it("maps Claude Code's names to our permission keys and keeps ours and MCP's as they are", () => {
    const patterns = [
      "Bash(git log:*)",
      "Bash",
      "Read",
      "Write",
      "Edit",
      "Grep",
      "Glob",
      "Read(src/**)",
      "mcp__github__get_issue",
      "run_command(npm test*)",
    ].map((entry) => {
      const mapped = mapAllowedTool(entry);
      return "pattern" in mapped ? mapped.pattern : mapped.problem;
    });
    assert.deepEqual(patterns, [
      "run_command(git log*)",
      "run_command",
      "read_file",
      "write_file",
      "edit_file",
      "grep",
      "glob",
      "read_file(src/**)",
      "mcp__github__get_issue",
      "run_command(npm test*)",
    ]);
  });

  it("says why an entry maps to nothing", () => {
    const problem = (entry: string) => {
      const mapped = mapAllowedTool(entry);
      return "problem" in mapped ? mapped.problem : "";
    };
    assert.match(problem("WebFetch"), /no equivalent/);
    assert.match(problem("Frobnicate"), /no tool here/);
    assert.match(problem("Bash(git log"), /not a tool name/);
    assert.match(problem("Bash()"), /empty argument/);
  });
});
