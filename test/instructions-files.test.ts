// Instruction files as Claude Code reads them, through compat-claude-code: where `@path`
// imports are (not in code), which files are read and in what order, and every file left out
// said with its file and line: outside the repository and home, a cycle, too deep, a home file
// a repository's file may not read without consent.
import assert from "node:assert/strict";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  findImports,
  type InstructionLoad,
  loadInstructionFiles,
  MAX_IMPORT_DEPTH,
} from "@pseudoclaude/compat-claude-code";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";

const FIXTURES = fileURLToPath(new URL("../../test/fixtures/instructions/", import.meta.url));

async function put(file: string, text: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** The files read, as displayed, in order. */
const read = (load: InstructionLoad) => load.files.map((file) => file.display);
const kinds = (load: InstructionLoad) => load.problems.map((p) => `${p.kind}@${p.line ?? "-"}`);

describe("findImports", () => {
  it("finds @path at a line's start or after white space, with its line", () => {
    const text =
      "# Rules\n@docs/style.md\nSee @./notes.md and @~/shared.md.\nMail me@example.com\n";
    assert.deepEqual(findImports(text), [
      { path: "docs/style.md", line: 2 },
      { path: "./notes.md", line: 3 },
      { path: "~/shared.md.", line: 3 },
    ]);
  });

  it("skips code spans, fenced and indented code blocks, but not list continuations", () => {
    const text = [
      "Use `@scope/package` and ``@a `b` ``.", // 1: spans only
      "```ts", // 2
      "@Component() class A {}", // 3: fenced
      "```", // 4
      "~~~", // 5
      "@inside.md", // 6: fenced with tildes
      "~~~", // 7
      "", // 8
      "    @indented.md", // 9: indented code block
      "", // 10
      "- item", // 11
      "", // 12
      "    @continued.md", // 13: a list item's paragraph, not code
      "Escaped @my\\ notes.md#section and @@twice and @#hash", // 14
    ].join("\n");
    assert.deepEqual(findImports(text), [
      { path: "continued.md", line: 13 },
      { path: "my notes.md", line: 14 },
    ]);
  });

  it("reads public files as they are: an import on its line, none in a code span or a plugin id", async () => {
    const file = (name: string) => readFile(path.join(FIXTURES, name), "utf8");
    assert.deepEqual(findImports(await file("diversio-claude-plugins/CLAUDE.md")), [
      { path: "AGENTS.md", line: 1 },
    ]);
    assert.deepEqual(findImports(await file("diversio-claude-plugins/AGENTS.md")), []);
    assert.deepEqual(findImports(await file("laravel-love/CLAUDE.md")), [
      { path: "AGENTS.md", line: 9 },
    ]);
  });
});

describe("loadInstructionFiles", () => {
  let ws: TempWorkspace;
  let base: string;
  beforeEach(async () => {
    ws = await createTempWorkspace("pseudoclaude-instructions-");
    base = path.dirname(ws.root);
  });
  afterEach(() => ws.cleanup());

  it("reads the user's file, then root to workspace, nearest last; each import after its importer", async () => {
    await mkdir(path.join(ws.root, ".git"));
    const pkg = path.join(ws.root, "packages", "app");
    await put(path.join(ws.home, ".claude", "CLAUDE.md"), "user");
    await put(path.join(ws.root, "CLAUDE.md"), "root\n@docs/style.md\n");
    await put(path.join(ws.root, "docs", "style.md"), "style");
    await put(path.join(ws.root, "AGENTS.md"), "root agents");
    await put(path.join(ws.root, "CLAUDE.local.md"), "root local");
    await put(path.join(pkg, ".claude", "CLAUDE.md"), "app dot-claude");
    await put(path.join(pkg, "AGENTS.md"), "app agents");
    const load = loadInstructionFiles(pkg, { homeDir: ws.home });
    assert.equal(load.root, ws.root);
    assert.deepEqual(read(load), [
      "~/.claude/CLAUDE.md",
      "CLAUDE.md",
      "docs/style.md",
      "AGENTS.md",
      "CLAUDE.local.md",
      "packages/app/.claude/CLAUDE.md",
      "packages/app/AGENTS.md",
    ]);
    assert.deepEqual(
      load.files.map((file) => file.scope),
      ["user", "project", "project", "project", "local", "project", "project"],
    );
    assert.deepEqual(load.files[2]?.importedBy, {
      path: path.join(ws.root, "CLAUDE.md"),
      display: "CLAUDE.md",
      line: 2,
    });
    assert.deepEqual(load.problems, []);
  });

  it("outside a repository, only the workspace's own folder is read", async () => {
    await put(path.join(base, "CLAUDE.md"), "the folder above");
    await put(path.join(ws.root, "CLAUDE.md"), "mine");
    assert.deepEqual(read(loadInstructionFiles(ws.root, { homeDir: ws.home })), ["CLAUDE.md"]);
  });

  it("reads AGENTS.md once, where CLAUDE.md imports it (a public repository's pair)", async () => {
    for (const name of ["CLAUDE.md", "AGENTS.md"])
      await writeFile(
        path.join(ws.root, name),
        await readFile(path.join(FIXTURES, "laravel-love", name)),
      );
    const load = loadInstructionFiles(ws.root, { homeDir: ws.home });
    assert.deepEqual(read(load), ["CLAUDE.md", "AGENTS.md"]);
    assert.deepEqual(load.files[1]?.importedBy?.line, 9);
    assert.match(load.files[1]?.content ?? "", /docker compose exec php85 composer test/);
  });

  it("refuses an import outside the repository and home, naming the file and line", async () => {
    await put(path.join(base, "outside.md"), "secret");
    await put(path.join(ws.root, "CLAUDE.md"), "a\n\n@../outside.md\n@/etc/hostname\n");
    const load = loadInstructionFiles(ws.root, { homeDir: ws.home });
    assert.deepEqual(read(load), ["CLAUDE.md"]);
    assert.deepEqual(kinds(load), ["outside@3", "outside@4"]);
    assert.equal(load.problems[0]?.file, path.join(ws.root, "CLAUDE.md"));
    assert.match(load.problems[0]?.message ?? "", /^CLAUDE\.md line 3 imports \.\.\/outside\.md/);
  });

  it("follows links: a CLAUDE.md that is a link out of the repository is refused", async () => {
    const target = await put(path.join(base, "elsewhere.md"), "not the repository's");
    await symlink(target, path.join(ws.root, "CLAUDE.md"));
    await put(path.join(ws.root, "docs", "x.md"), "x");
    await symlink(target, path.join(ws.root, "docs", "link.md"));
    await put(path.join(ws.root, "AGENTS.md"), "@docs/link.md\n");
    const load = loadInstructionFiles(ws.root, { homeDir: ws.home });
    assert.deepEqual(read(load), ["AGENTS.md"]);
    assert.deepEqual(kinds(load), ["outside@-", "outside@1"]);
  });

  it("a repository's file reads a home file only when asked and approved; the user's own never asks", async () => {
    await put(path.join(ws.home, "notes.md"), "my notes\n@~/.ssh/config\n");
    await put(path.join(ws.home, ".ssh", "config"), "Host *");
    await put(path.join(ws.root, "CLAUDE.local.md"), "@~/notes.md\n");
    const refused = loadInstructionFiles(ws.root, { homeDir: ws.home });
    assert.deepEqual(read(refused), ["CLAUDE.local.md"]);
    assert.deepEqual(kinds(refused), ["needs_consent@1"]);
    const asked: string[] = [];
    const approved = loadInstructionFiles(ws.root, {
      homeDir: ws.home,
      homeRead: (request) => {
        asked.push(`${request.targetDisplay} from ${path.basename(request.from)}:${request.line}`);
        return true;
      },
    });
    // Once approved, the home file is the user's: what it imports is theirs to import.
    assert.deepEqual(read(approved), ["CLAUDE.local.md", "~/notes.md", "~/.ssh/config"]);
    assert.deepEqual(asked, ["~/notes.md from CLAUDE.local.md:1"]);
    await put(path.join(ws.home, ".claude", "CLAUDE.md"), "@~/notes.md\n");
    const users = loadInstructionFiles(ws.root, { homeDir: ws.home });
    assert.deepEqual(read(users).slice(0, 2), ["~/.claude/CLAUDE.md", "~/notes.md"]);
  });

  it("refuses a cycle at the import that closes it, and reads each file once", async () => {
    await put(path.join(ws.root, "CLAUDE.md"), "top\n@a.md\n");
    await put(path.join(ws.root, "a.md"), "a\n@b.md\n");
    await put(path.join(ws.root, "b.md"), "b\n\n@a.md\n@CLAUDE.md\n");
    const load = loadInstructionFiles(ws.root, { homeDir: ws.home });
    assert.deepEqual(read(load), ["CLAUDE.md", "a.md", "b.md"]);
    assert.deepEqual(kinds(load), ["cycle@3", "cycle@4"]);
    assert.match(load.problems[0]?.message ?? "", /CLAUDE\.md → a\.md → b\.md → a\.md/);
  });

  it(`stops ${MAX_IMPORT_DEPTH} imports deep, as Claude Code does`, async () => {
    const chain = Array.from({ length: MAX_IMPORT_DEPTH + 2 }, (_, i) => `f${i}.md`);
    await put(path.join(ws.root, "CLAUDE.md"), `@${chain[0]}\n`);
    for (const [i, name] of chain.entries())
      await put(path.join(ws.root, name), `level ${i + 1}\n@${chain[i + 1] ?? "end.md"}\n`);
    const load = loadInstructionFiles(ws.root, { homeDir: ws.home });
    assert.equal(load.files.length, MAX_IMPORT_DEPTH + 1);
    assert.deepEqual(kinds(load), ["too_deep@2"]);
    assert.equal(load.problems[0]?.file, path.join(ws.root, chain[MAX_IMPORT_DEPTH - 1]!));
  });

  it("says so of a missing path, not of a package name; leaves out a file that is not text", async () => {
    await put(path.join(ws.root, "CLAUDE.md"), "Use @types/node.\n@docs/stlye.md\n@logo.png\n");
    await writeFile(path.join(ws.root, "logo.png"), Buffer.from([0x89, 0x50, 0, 0]));
    const load = loadInstructionFiles(ws.root, { homeDir: ws.home });
    assert.deepEqual(kinds(load), ["missing@2", "not_text@-"]);
  });
});
