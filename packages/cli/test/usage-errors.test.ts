import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseJson, runCli, TOOLS_PLUGIN, withWorkspace } from "./support/cli.js";

const cliVersion = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

describe("pseudoclaude usage errors", () => {
  const cases: Array<{
    name: string;
    args: string[];
    stderr: RegExp;
    files?: Record<string, string>;
  }> = [
    { name: "an unknown flag", args: ["tools", "--frob"], stderr: /--frob/ },
    {
      name: "a flag of another command",
      args: ["call", "echo", "--max-turns", "2"],
      stderr: /--max-turns.*"call"/,
    },
    {
      name: "a --mode outside the permission modes",
      args: ["call", "echo", "--mode", "yolo"],
      stderr: /--mode must be one of default, plan, accept_edits, bypass/,
    },
    {
      name: "a string-valued flag without its value",
      args: ["run", "hi", "--script"],
      stderr: /--script/,
    },
    {
      name: "--provider scripted without --script",
      args: ["run", "hi", "--provider", "scripted"],
      stderr: /needs --script FILE/,
    },
    {
      name: "a script file that does not exist",
      args: ["run", "hi", "--script", "missing.json"],
      stderr: /Cannot read script/,
    },
    {
      name: "a script file that is not a valid script",
      args: ["run", "hi", "--script", "script.json"],
      stderr: /Invalid script/,
      files: { "script.json": '[{"txt": "typo"}]' },
    },
    {
      name: "an unknown provider",
      args: ["run", "hi", "--provider", "gpt-9"],
      stderr: /Unknown provider "gpt-9"/,
    },
    { name: "a run with no provider at all", args: ["run", "hi"], stderr: /No model provider/ },
    { name: "an unknown command", args: ["frobnicate"], stderr: /Unknown command "frobnicate"/ },
    { name: "a missing tool name", args: ["call"], stderr: /needs TOOL/ },
    {
      name: "a --timeout-ms that is not a number",
      args: ["call", "echo", "--timeout-ms", "soon"],
      stderr: /--timeout-ms must be a positive whole number/,
    },
    {
      name: "a --workspace that does not exist",
      args: ["tools", "--workspace", "nowhere"],
      stderr: /is not a directory/,
    },
  ];
  for (const { name, args, stderr, files } of cases) {
    it(`exits 2 and explains ${name}`, async () => {
      await withWorkspace(async (workspace) => {
        for (const [file, content] of Object.entries(files ?? {}))
          await workspace.write(file, content);
        const result = await runCli(workspace, [...args, "--plugin", TOOLS_PLUGIN]);
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, stderr);
        assert.equal(result.stdout, "");
      });
    });
  }

  it("reports a usage error as one JSON document on stdout when --json is given", async () => {
    await withWorkspace(async (workspace) => {
      for (const args of [
        ["tools", "--json", "--frob"],
        ["run", "hi", "--json", "--mode", "x"],
      ]) {
        const result = await runCli(workspace, args);
        assert.equal(result.code, 2);
        const json = parseJson<{ error: { code: string; message: string } }>(result);
        assert.deepEqual(Object.keys(json), ["error"]);
        assert.equal(typeof json.error.code, "string");
        assert.match(json.error.message, /--frob|--mode/);
      }
    });
  });

  it("prints help for the program and for a command, and the version", async () => {
    await withWorkspace(async (workspace) => {
      const help = await runCli(workspace, ["--help"]);
      assert.equal(help.code, 0);
      for (const command of ["tools", "call", "run"]) {
        assert.match(help.stdout, new RegExp(`^ {2}${command} `, "m"));
      }
      const callHelp = await runCli(workspace, ["help", "call"]);
      assert.equal(callHelp.code, 0);
      assert.match(callHelp.stdout, /^Usage: pseudoclaude call TOOL \[JSON_ARGS\]/);
      const runHelp = await runCli(workspace, ["run", "--help"]);
      assert.match(runHelp.stdout, /^Usage: pseudoclaude run PROMPT/);
      const version = await runCli(workspace, ["--version"]);
      assert.equal(version.stdout, `${cliVersion}\n`);
      const bare = await runCli(workspace, []);
      assert.equal(bare.code, 2);
      assert.match(bare.stderr, /Usage: pseudoclaude <command>/);
    });
  });
});
