// Front matter as Claude Code reads it: strict YAML first, then one retry with YAML-special
// values quoted; what fails both ways is an error at the file's line and column.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { quoteSpecialValues, readFrontMatter } from "../src/index.js";

function data(text: string): { data: unknown; lenient: boolean } {
  const read = readFrontMatter(text);
  assert.equal(read.kind, "ok", JSON.stringify(read));
  if (read.kind !== "ok") throw new Error("unreachable");
  return { data: read.frontMatter.data, lenient: read.frontMatter.lenient };
}

describe("reading front matter", () => {
  it("reads strict YAML as it is, without the retry", () => {
    const read = readFrontMatter("---\nname: a\ndescription: 'x: y'\n---\nBody\n");
    assert.equal(read.kind, "ok");
    if (read.kind !== "ok") return;
    assert.deepEqual(read.frontMatter.data, { name: "a", description: "x: y" });
    assert.equal(read.frontMatter.lenient, false);
    assert.equal(read.frontMatter.body, "Body\n");
    assert.equal(read.frontMatter.bodyLine, 5);
  });

  it("reads an unquoted description with a colon inside, as Claude Code does", () => {
    const text =
      "---\nname: growth\ndescription: Use when the user asks. Triggers on: 'loop', 'flywheel'.\ntools: Read, Grep\n---\n";
    assert.deepEqual(data(text), {
      data: {
        name: "growth",
        description: "Use when the user asks. Triggers on: 'loop', 'flywheel'.",
        tools: "Read, Grep",
      },
      lenient: true,
    });
  });

  it("keeps backslashes and double quotes of a quoted value as text", () => {
    const text = '---\nname: q\ndescription: Say "hi": then C:\\temp # not a comment\n---\n';
    assert.equal(
      (data(text).data as { description: string }).description,
      'Say "hi": then C:\\temp # not a comment',
    );
  });

  it("quotes only top-level values with YAML-special characters, line for line", () => {
    const yaml = [
      "---",
      "name: plain",
      "description: a: b",
      "when: 12:30 at https://example.com",
      "glob: **/*.{ts,tsx}",
      "quoted: 'x: y'",
      "list:",
      "  - item: one",
      "block: |",
      "  text: here",
    ].join("\n");
    assert.deepEqual(quoteSpecialValues(yaml).split("\n"), [
      "---",
      "name: plain",
      'description: "a: b"',
      "when: 12:30 at https://example.com",
      'glob: "**/*.{ts,tsx}"',
      "quoted: 'x: y'",
      "list:",
      "  - item: one",
      'block: "|"',
      "  text: here",
    ]);
  });

  it("reports what neither reading can parse at the file's line and column", () => {
    // A continuation line that is not `key: value` stays unquoted and breaks the mapping.
    const text =
      "---\nname: simplifier\ndescription: Use this agent when: code changed.\nContext: a feature\n<function call omitted>\n---\nBody\n";
    const read = readFrontMatter(text);
    assert.equal(read.kind, "invalid");
    if (read.kind !== "invalid") return;
    assert.deepEqual([read.line, read.column], [5, 1]);
    assert.match(read.message, /\S/);
  });

  it("treats a duplicate key as an error both ways, as Claude Code's parser does", () => {
    const read = readFrontMatter("---\nname: a\nname: b\ndescription: d\n---\n");
    assert.equal(read.kind, "invalid");
    if (read.kind !== "invalid") return;
    assert.deepEqual([read.line, read.column], [3, 1]);
    assert.match(read.message, /unique/i);
  });

  it("tells a file without front matter from one whose front matter never closes", () => {
    assert.equal(readFrontMatter("# Title\n").kind, "missing");
    assert.equal(readFrontMatter("---\nname: a\n").kind, "unclosed");
  });

  it("refuses a front matter that expands aliases without bound", () => {
    const laughs = [
      "---",
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from({ length: 8 }, (_, i) => {
        const previous = i === 0 ? "a" : `l${i - 1}`;
        return `l${i}: &l${i} [*${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}]`;
      }),
      "---",
    ].join("\n");
    assert.equal(readFrontMatter(laughs).kind, "invalid");
  });
});
