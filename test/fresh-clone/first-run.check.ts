// What a new user does, on a fresh clone in a temporary folder: the README's main command,
// `npm ci && npm start`, offline with no API key. It must use an MCP tool, a built-in tool and
// the shipped skill, and leave no process behind. Run by `.ci/run` (not by `npm test`, which is
// itself the README's other command and runs on CI's own fresh clone).
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const repository = fileURLToPath(new URL("../../../", import.meta.url));

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Processes whose command line mentions `folder` (a server or script the run left behind). */
function processesUnder(folder: string): string[] {
  const listing = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return listing.split("\n").filter((line) => line.includes(folder) && !line.includes("ps -eo"));
}

describe("a fresh clone", () => {
  it("runs the README's main command offline and uses MCP, a built-in tool and the skill", {
    timeout: 600_000,
  }, async () => {
    const readme = await readFile(path.join(repository, "README.md"), "utf8");
    const commands = /## Two commands[^\n]*\n+```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const lines = commands
      .split("\n")
      .map((line) => line.replace(/#.*$/, "").trim())
      .filter(Boolean);
    assert.deepEqual(lines, ["npm ci && npm start", "npm ci && npm test"]);

    const base = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-fresh-"));
    const clone = path.join(base, "clone");
    try {
      execFileSync("git", ["clone", "--quiet", repository, clone]);
      const env = { ...process.env };
      delete env.ANTHROPIC_API_KEY;
      delete env.OPENAI_API_KEY;
      const install = await run("npm", ["ci", "--no-audit", "--no-fund"], clone, env);
      assert.equal(install.code, 0, install.stderr);
      const start = await run("npm", ["start"], clone, env);
      assert.equal(start.code, 0, `${start.stdout}\n${start.stderr}`);
      const out = start.stdout;
      assert.match(out, /Offline demo: no ANTHROPIC_API_KEY or OPENAI_API_KEY is set/);
      assert.match(out, /To use a real model: ANTHROPIC_API_KEY=\.\.\. npm start/);
      assert.match(
        out,
        /MCP totals: configured=1 connected=1 discovered=\d+ adapted=\d+ filtered=0 registered=\d+/,
      );
      assert.match(
        out,
        /tool mcp__filesystem__list_directory .*\n.*\n {4}result: ok: .*package\.json/,
      );
      assert.match(out, /tool read_file .*\n.*\n {4}result: ok: .*"version": "1\.2\.0"/);
      assert.match(out, /tool load_skill \{"name":"release-checklist"\}\n.*\n {4}result: ok/);
      assert.match(
        out,
        /tool skill__release-checklist__check-changelog .*\n.*\n {4}result: ok: CHANGELOG\.md has an entry for 1\.2\.0/,
      );
      assert.match(out, /Turns: 6, stop: end_turn, usage: /);
      assert.deepEqual(processesUnder(clone), [], "npm start left no process behind");
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
