import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { show, textOf, withTools } from "./support/agent.js";

/** A small project: ignored build output, a nested .gitignore with a re-include, a .git folder. */
async function project(w: TempWorkspace): Promise<void> {
  await w.write(".gitignore", "dist/\n*.log\nnode_modules\n");
  await w.write(
    "src/index.ts",
    "import { load } from './load';\nexport function main() {\n  return load();\n}\n",
  );
  await w.write("src/load.ts", "export function load() {\n  // TODO: cache\n  return 42;\n}\n");
  await w.write("src/util/strings.ts", "export const upper = (s: string) => s.toUpperCase();\n");
  await w.write("src/util/.gitignore", "*.gen.ts\n!keep.gen.ts\n");
  await w.write("src/util/skip.gen.ts", "export function load() {}\n");
  await w.write("src/util/keep.gen.ts", "export function load() {}\n");
  await w.write("dist/index.js", "function load() {}\n");
  await w.write("debug.log", "load failed\n");
  await w.write("node_modules/lib/index.js", "function load() {}\n");
  await w.write(".git/config", "load = true\n");
  await w.write("README.md", "# Demo\nCall load() to load.\n");
  await writeFile(
    path.join(w.root, "src/logo.bin"),
    Buffer.from([0, 1, 2, 3, 0x6c, 0x6f, 0x61, 0x64]),
  );
}

describe("glob", () => {
  it("matches a pattern, skipping .gitignore'd files and .git, honouring a nested re-include", async () => {
    await withTools({ setup: project }, async ({ call }) => {
      const result = await call("glob", { pattern: "**/*.ts" });
      assert.equal(result.ok, true, show(result));
      assert.deepEqual(textOf(result).split("\n"), [
        "src/index.ts",
        "src/load.ts",
        "src/util/keep.gen.ts",
        "src/util/strings.ts",
      ]);
      const all = await call("glob", { pattern: "**/*.js", include_ignored: true });
      assert.deepEqual(textOf(all).split("\n"), ["dist/index.js", "node_modules/lib/index.js"]);
      const git = await call("glob", { pattern: "**/config", include_ignored: true });
      assert.match(textOf(git), /^No files match/);
    });
  });

  it("searches from a sub-folder and a fixed prefix, with paths relative to the workspace", async () => {
    await withTools({ setup: project }, async ({ call }) => {
      assert.equal(
        textOf(await call("glob", { pattern: "*.ts", path: "src/util" })),
        "src/util/keep.gen.ts\nsrc/util/strings.ts",
      );
      assert.equal(
        textOf(await call("glob", { pattern: "src/*.ts" })),
        "src/index.ts\nsrc/load.ts",
      );
      assert.equal(textOf(await call("glob", { pattern: "*.md" })), "README.md");
      assert.equal(textOf(await call("glob", { pattern: "src/load.ts" })), "src/load.ts");
      assert.match(textOf(await call("glob", { pattern: "nothing/**" })), /No files match/);
    });
  });

  it("caps the matches and says so", async () => {
    await withTools({ setup: project }, async ({ call }) => {
      const result = await call("glob", { pattern: "**/*", limit: 3 });
      const lines = textOf(result).split("\n");
      assert.equal(lines.length, 4);
      assert.match(lines[3] ?? "", /first 3 matches shown/);
      assert.equal((result.structured as { truncated: boolean }).truncated, true);
    });
  });

  it("refuses patterns that climb out with ..", async () => {
    await withTools({}, async ({ call }) => {
      const result = await call("glob", { pattern: "../**/*" });
      assert.equal(result.error?.code, "invalid_arguments", show(result));
      assert.equal((await call("glob", { pattern: "/etc/*" })).error?.code, "invalid_arguments");
    });
  });
});

describe("grep", () => {
  it("finds matching lines in ripgrep format, skipping ignored, .git and binary files", async () => {
    await withTools({ setup: project }, async ({ call }) => {
      const result = await call("grep", { pattern: "function load" });
      assert.equal(result.ok, true, show(result));
      const text = textOf(result);
      assert.deepEqual(text.split("\n").slice(0, -1), [
        "src/load.ts:1:export function load() {",
        "src/util/keep.gen.ts:1:export function load() {}",
      ]);
      assert.match(text, /\[2 matches in 2 files; \d+ files searched, 1 binary file skipped\]$/);
      const ignored = await call("grep", {
        pattern: "function load",
        include_ignored: true,
        output_mode: "files_with_matches",
      });
      assert.deepEqual(textOf(ignored).split("\n").slice(0, -1), [
        "dist/index.js",
        "node_modules/lib/index.js",
        "src/load.ts",
        "src/util/keep.gen.ts",
        "src/util/skip.gen.ts",
      ]);
    });
  });

  it("filters files by glob, ignores case and shows context with separators", async () => {
    await withTools({ setup: project }, async ({ call }) => {
      const result = await call("grep", {
        pattern: "TODO|RETURN",
        case_insensitive: true,
        glob: "load.ts",
        context: 1,
      });
      assert.deepEqual(textOf(result).split("\n").slice(0, -1), [
        "src/load.ts-1-export function load() {",
        "src/load.ts:2:  // TODO: cache",
        "src/load.ts:3:  return 42;",
        "src/load.ts-4-}",
      ]);
      const spaced = await call("grep", {
        pattern: "load",
        path: "src/index.ts",
        context: 0,
        output_mode: "count",
      });
      assert.equal(textOf(spaced).split("\n")[0], "src/index.ts:2");
      const pathGlob = await call("grep", {
        pattern: "export",
        glob: "src/util/*.ts",
        output_mode: "files_with_matches",
      });
      assert.deepEqual(textOf(pathGlob).split("\n").slice(0, -1), [
        "src/util/keep.gen.ts",
        "src/util/strings.ts",
      ]);
      const separated = await call("grep", {
        pattern: "^export|^}",
        path: "src/load.ts",
        context: 0,
      });
      assert.equal(textOf(separated).split("\n").length, 3);
    });
  });

  it("puts -- between groups that are not adjacent", async () => {
    const lines = Array.from({ length: 20 }, (_, index) =>
      index === 2 || index === 15 ? "hit" : `line ${index + 1}`,
    );
    await withTools(
      { setup: (w) => w.write("f.txt", `${lines.join("\n")}\n`).then(() => {}) },
      async ({ call }) => {
        const result = await call("grep", { pattern: "hit", context: 1 });
        assert.deepEqual(textOf(result).split("\n").slice(0, -1), [
          "f.txt-2-line 2",
          "f.txt:3:hit",
          "f.txt-4-line 4",
          "--",
          "f.txt-15-line 15",
          "f.txt:16:hit",
          "f.txt-17-line 17",
        ]);
      },
    );
  });

  it("stops at the match limit and at the output cap, saying so", async () => {
    const flood = `${Array.from({ length: 5000 }, (_, index) => `match ${index}`).join("\n")}\n`;
    await withTools(
      {
        plugin: { maxOutputChars: 2_000 },
        setup: (w) => w.write("flood.txt", flood).then(() => {}),
      },
      async ({ call }) => {
        const limited = await call("grep", { pattern: "match", limit: 5 });
        assert.equal(textOf(limited).split("\n").length, 6);
        assert.match(textOf(limited), /stopped at the limit of 5/);
        const capped = await call("grep", { pattern: "match", limit: 2000 });
        assert.ok(textOf(capped).length < 2_300, `bounded: ${textOf(capped).length}`);
        assert.match(textOf(capped), /stopped at the output cap of 2000 characters/);
        assert.equal((capped.structured as { truncated: boolean }).truncated, true);
      },
    );
  });

  it("shows a window of a very long matching line", async () => {
    const line = `${"a".repeat(100_000)}NEEDLE${"b".repeat(100_000)}`;
    await withTools(
      { setup: (w) => w.write("min.js", `${line}\n`).then(() => {}) },
      async ({ call }) => {
        const result = await call("grep", { pattern: "NEEDLE" });
        const first = textOf(result).split("\n")[0] ?? "";
        assert.ok(first.length < 600, `window: ${first.length}`);
        assert.match(first, /^min\.js:1:….*NEEDLE.*line of 200006 bytes cut/);
      },
    );
  });

  it("says when nothing matched", async () => {
    await withTools({ setup: project }, async ({ call }) => {
      const result = await call("grep", { pattern: "no such text" });
      assert.equal(result.ok, true);
      assert.match(
        textOf(result),
        /^No matches for \/no such text\/ in \. \(\d+ files searched, 1 binary file skipped\)\.$/,
      );
    });
  });

  it("times out a runaway regular expression instead of blocking the agent", async () => {
    await withTools(
      { setup: (w) => w.write("evil.txt", `${"a".repeat(40)}!\n`).then(() => {}) },
      async ({ call }) => {
        const started = Date.now();
        const result = await call("grep", { pattern: "^(a+)+$" }, { timeoutMs: 300 });
        assert.equal(result.error?.code, "timeout", show(result));
        assert.ok(Date.now() - started < 10_000, "answered long before the regex would finish");
      },
    );
  });
});

describe("path rules hold for each file a search shows", () => {
  const rules = {
    agent: {
      policy: {
        // In bypass an ask rule asks no one; here it keeps the file out of what a search shows.
        mode: "default" as const,
        deny: ["read_file(secrets/**)", "grep(**/*.env)"],
        ask: ["read_file(private/**)"],
      },
    },
    setup: async (w: TempWorkspace) => {
      await w.write("src/app.ts", "const KEY = process.env.KEY;\n");
      await w.write("secrets/key.txt", "KEY=hunter2\n");
      await w.write("config/prod.env", "KEY=prod-key\n");
      await w.write("private/notes.md", "KEY: personal\n");
    },
  };

  it("grep leaves out files a deny or ask rule of read_file or grep matches, and says so", async () => {
    await withTools(rules, async ({ call }) => {
      const result = await call("grep", { pattern: "KEY" });
      assert.equal(result.ok, true, show(result));
      const text = textOf(result);
      assert.match(text, /^src\/app\.ts:1:const KEY/m);
      for (const hidden of ["hunter2", "prod-key", "personal"])
        assert.ok(!text.includes(hidden), `${hidden} shown:\n${text}`);
      assert.match(text, /3 files left out by permission rules/);
      assert.equal((result.structured as { withheld_files?: number }).withheld_files, 3);
      // A file named directly is judged too: a rule on read_file keeps grep out of it.
      const direct = await call("grep", { pattern: "KEY", path: "secrets/key.txt" });
      assert.ok(!textOf(direct).includes("hunter2"), show(direct));
      assert.match(textOf(direct), /No matches .*1 file left out by permission rules/);
    });
  });

  it("glob leaves out the same files and counts its limit over the files it shows", async () => {
    await withTools(rules, async ({ call }) => {
      const result = await call("glob", { pattern: "**/*" });
      assert.equal(result.ok, true, show(result));
      // grep's own rule (*.env) does not bind glob; read_file's rules bind both.
      assert.deepEqual((result.structured as { files: string[] }).files, [
        "config/prod.env",
        "src/app.ts",
      ]);
      assert.match(textOf(result), /2 files left out by permission rules/);
      const limited = await call("glob", { pattern: "**/*", limit: 2 });
      assert.deepEqual((limited.structured as { files: string[] }).files, [
        "config/prod.env",
        "src/app.ts",
      ]);
      assert.doesNotMatch(textOf(limited), /narrow the pattern or raise limit/);
    });
  });
});
