// Concerns with exactly one implementation, guarded: a second one would drift from the first
// (a process group ended without the SIGKILL fallback, a command split one way for allow rules
// and another for deny rules). Each check reads every package's and plugin's sources.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Every TypeScript source file of packages and plugins, relative to the repository. */
async function sources(): Promise<Array<{ file: string; text: string }>> {
  const found: Array<{ file: string; text: string }> = [];
  for (const home of ["packages", "plugins"]) {
    for (const pkg of await readdir(path.join(ROOT, home))) {
      const src = path.join(ROOT, home, pkg, "src");
      const files = await readdir(src, { recursive: true }).catch(() => []);
      for (const file of files)
        if (file.endsWith(".ts") && !file.endsWith(".d.ts")) {
          const full = path.join(src, file);
          found.push({ file: path.relative(ROOT, full), text: await readFile(full, "utf8") });
        }
    }
  }
  return found;
}

/** The files whose code (comments left out) matches `pattern`. */
async function filesMatching(pattern: RegExp): Promise<string[]> {
  return (await sources())
    .filter(({ text }) => pattern.test(withoutComments(text)))
    .map(({ file }) => file)
    .sort();
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

describe("one owner per concern", () => {
  it("reads the sources it guards", async () => {
    const files = (await sources()).map(({ file }) => file);
    assert.ok(files.length > 100, `${files.length} files`);
    assert.ok(files.includes(path.join("packages", "core", "src", "process", "process-group.ts")));
  });

  it("only process-group.ts signals processes (TERM, then KILL after a grace, the exit hook)", async () => {
    assert.deepEqual(await filesMatching(/\bprocess\.kill\(|\bsignalGroup\(/), [
      path.join("packages", "core", "src", "process", "process-group.ts"),
    ]);
  });

  it("one redaction marker: redactor.ts's REDACTED, used by whoever hides a secret", async () => {
    assert.deepEqual(await filesMatching(/\[redacted\]|["'`]\*\*\*["'`]/i), [
      path.join("packages", "core", "src", "diagnostics", "redactor.ts"),
    ]);
  });

  it("one test of a secret's name: redactor.ts's isSecretName, for redaction and config show alike", async () => {
    // A pattern of credential words (password, passwd...) written a second time would drift.
    assert.deepEqual(await filesMatching(/passw(or)?d\|/i), [
      path.join("packages", "core", "src", "diagnostics", "redactor.ts"),
    ]);
  });

  it("one tool-name rule: tool-name.ts defines what a registry and a model API take", async () => {
    assert.deepEqual(await filesMatching(/\[\^?a-zA-Z0-9_-\]/), [
      path.join("packages", "core", "src", "tools", "tool-name.ts"),
    ]);
  });

  it("only deny-forms.ts splits a command line into sub-commands", async () => {
    // A hand-written split at the shell's separators, e.g. /&&|\|\||;|\|/.
    assert.deepEqual(await filesMatching(/&&\|\\\|\\\|/), []);
    assert.deepEqual(await filesMatching(/export function subCommands\(/), [
      path.join("packages", "core", "src", "policy", "deny-forms.ts"),
    ]);
  });
});
