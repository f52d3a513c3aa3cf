// Reading agent files as Claude Code reads them: the front matter (lenient retry included), the
// description's `\n`, and `tools`/`disallowedTools`, where anything unclear gives fewer tools.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import type { Diagnostic } from "@pseudoclaude/core";
import { loadAgentFiles } from "../src/index.js";

const roots: string[] = [];
after(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

/** Load one agent file from a fresh home's `.claude/agents`. */
async function loadOne(frontMatter: string, body = "Do the work.\n") {
  const home = await mkdtemp(path.join(os.tmpdir(), "pc-agent-file-"));
  roots.push(home);
  const folder = path.join(home, ".claude", "agents");
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, "agent.md"), `---\n${frontMatter}\n---\n${body}`);
  const diagnostics: Diagnostic[] = [];
  const [file] = loadAgentFiles(path.join(home, "workspace"), (d) => diagnostics.push(d), home);
  return { file, diagnostics };
}

describe("agent files", () => {
  it("loads a description with an unquoted colon, as Claude Code does", async () => {
    const { file, diagnostics } = await loadOne(
      "name: a\ndescription: Use when: the user asks for a review.\ntools: Read",
    );
    assert.equal(file?.description, "Use when: the user asks for a review.");
    assert.deepEqual(file?.tools, ["read_file"]);
    assert.deepEqual(diagnostics, []);
  });

  it("skips what neither reading parses, at the file's line and column", async () => {
    const { file, diagnostics } = await loadOne(
      "name: a\ndescription: Reviews. Examples:\n<example>review</example>",
    );
    assert.equal(file, undefined);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]?.code, "agent_invalid");
    assert.deepEqual([diagnostics[0]?.line, diagnostics[0]?.column], [3, 14]);
    assert.match(diagnostics[0]?.message ?? "", /agent\.md:3:14: the front matter is not YAML/);
  });

  it("turns the two characters \\n of a description into line breaks", async () => {
    const { file } = await loadOne(
      'name: a\ndescription: "Reviews code.\\\\nExamples: <example>x</example>"',
    );
    assert.equal(file?.description, "Reviews code.\nExamples: <example>x</example>");
  });

  it("gives every tool for no tools or *, none for []", async () => {
    assert.equal((await loadOne("name: a\ndescription: d")).file?.tools, undefined);
    assert.equal((await loadOne("name: a\ndescription: d\ntools: '*'")).file?.tools, undefined);
    assert.deepEqual((await loadOne("name: a\ndescription: d\ntools: []")).file?.tools, []);
  });

  it("takes disallowedTools away from tools, and never widens what it cannot express", async () => {
    const listed = await loadOne(
      "name: a\ndescription: d\ntools: Read, Bash(git log:*), Grep\ndisallowedTools: Bash",
    );
    assert.deepEqual(listed.file?.tools, ["read_file", "grep"]);
    assert.deepEqual(listed.diagnostics, []);

    // "Every tool but Bash" has no pattern: the built-in tools stand for "every tool".
    const all = await loadOne("name: a\ndescription: d\ndisallowedTools: Bash, Write");
    assert.deepEqual(all.file?.tools, ["read_file", "edit_file", "grep", "glob", "list_dir"]);
    assert.deepEqual(
      all.diagnostics.map((d) => [d.code, d.severity]),
      [["agent_tools_narrowed", "warning"]],
    );

    // An argument pattern cannot be cut out of the whole tool: the whole tool goes.
    const partial = await loadOne(
      "name: a\ndescription: d\ntools: Read, Bash\ndisallowedTools: Bash(rm:*)",
    );
    assert.deepEqual(partial.file?.tools, ["read_file"]);
    assert.equal(partial.diagnostics[0]?.code, "agent_tools_narrowed");

    const unreadable = await loadOne("name: a\ndescription: d\ndisallowedTools: {a: 1}");
    assert.deepEqual(unreadable.file?.tools, []);
  });

  it("points each warning at its field's line and column", async () => {
    const { file, diagnostics } = await loadOne(
      "name: a\ndescription: Use when: asked.\ntools: Read, WebFetch\nmodel: fable",
    );
    assert.equal(file?.modelChoice.kind, "unknown");
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.line, d.column]),
      [
        ["agent_tool_unknown", "warning", 4, 8],
        ["agent_model_inherited", "warning", 5, 8],
      ],
    );
  });

  it("reads maxTurns as Claude Code does, and warns about one that is no positive number", async () => {
    assert.equal((await loadOne("name: a\ndescription: d\nmaxTurns: 5")).file?.maxTurns, 5);
    assert.equal((await loadOne("name: a\ndescription: d\nmaxTurns: '7'")).file?.maxTurns, 7);
    const bad = await loadOne("name: a\ndescription: d\nmaxTurns: many");
    assert.equal(bad.file?.maxTurns, undefined);
    assert.deepEqual(
      bad.diagnostics.map((d) => [d.code, d.line]),
      [["agent_field_invalid", 4]],
    );
  });
});
