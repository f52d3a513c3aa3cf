// Code mode through the real CLI: off unless asked (config code_mode or --code-mode), listed by
// `tools --json` when on, a run prints the program and its calls nested under it, and each
// call inside is decided as the model's own would be (--yes answers a write; without it, and
// without a terminal, the write is refused and the program goes on).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN, parseJson, runCli } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const COUNT = `const listing = await tools.list_dir({ path: "notes" });
const names = listing.split("\\n").slice(1).map((line) => line.split(/\\s+/)[0]);
let todos = 0;
for (const name of names) {
  const text = await tools.read_file({ path: "notes/" + name });
  if (text.includes("TODO")) todos++;
}
return { files: names.length, todos };`;

const WRITE = `try {
  await tools.write_file({ path: "out.txt", content: "from the program" });
  return "written";
} catch (error) {
  return "refused: " + error.code;
}`;

describe("code mode in the CLI", () => {
  let workspace: TempWorkspace;
  beforeEach(async () => {
    workspace = await createTempWorkspace("pc-code-mode-cli-");
    for (let i = 0; i < 5; i++)
      await workspace.write(`notes/n${i}.txt`, i % 2 === 0 ? `TODO ${i}\n` : `done ${i}\n`);
  });
  afterEach(() => workspace.cleanup());

  const script = (code: string) =>
    workspace.write(
      "script.json",
      JSON.stringify([
        { tool_calls: [{ name: "code_mode", arguments: { code } }] },
        { text: "Counted." },
      ]),
    );

  it("is off by default; --code-mode on and the config's code_mode offer it", async () => {
    const names = async (args: string[]) => {
      const run = await runCli(workspace, ["tools", "--json", ...args]);
      assert.equal(run.code, 0, run.stderr);
      return parseJson<{ tools: Array<{ name: string; state: string }> }>(run).tools;
    };
    assert.ok(!(await names([])).some((tool) => tool.name === "code_mode"));
    const flagged = (await names(["--code-mode", "on"])).find((tool) => tool.name === "code_mode");
    assert.equal(flagged?.state, "loaded");
    await workspace.writeConfig("user", "code_mode: on\n");
    assert.ok((await names([])).some((tool) => tool.name === "code_mode"));
    assert.ok(!(await names(["--code-mode", "off"])).some((tool) => tool.name === "code_mode"));
    const bad = await runCli(workspace, ["tools", "--code-mode", "sometimes"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--code-mode must be one of off, on, auto \(got "sometimes"\)/);
  });

  it("a run prints the program, then its calls nested under it; the answer is the program's", async () => {
    await script(COUNT);
    const run = await runCli(workspace, [
      "run",
      "count",
      "--script",
      "script.json",
      "--code-mode",
      "on",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "Counted.\n");
    const lines = run.stderr.split("\n");
    const start = lines.indexOf("> code_mode");
    assert.ok(start !== -1, run.stderr);
    assert.equal(lines[start + 1], '  | const listing = await tools.list_dir({ path: "notes" });');
    assert.ok(lines.includes('    > list_dir {"path":"notes"}'), run.stderr);
    assert.equal(lines.filter((line) => line.startsWith("    > read_file ")).length, 5);
    assert.ok(lines.includes('  code_mode -> ok: {"files":5,"todos":3}'), run.stderr);
  });

  it("a write inside the program is asked about like the model's: --yes answers it", async () => {
    await script(WRITE);
    const refused = await runCli(workspace, [
      "run",
      "w",
      "--script",
      "script.json",
      "--code-mode",
      "on",
    ]);
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(refused.stderr, /code_mode -> ok: refused: denied/);
    assert.equal(existsSync(path.join(workspace.root, "out.txt")), false);
    const yes = await runCli(workspace, [
      ...["run", "w", "--script", "script.json", "--code-mode", "on", "--yes"],
    ]);
    assert.equal(yes.code, 0, yes.stderr);
    assert.match(yes.stderr, /code_mode -> ok: written/);
    assert.equal(await readFile(path.join(workspace.root, "out.txt"), "utf8"), "from the program");
  });

  it("in a terminal, the approval names the program's call; a yes lets the write run", {
    timeout: 30_000,
  }, async () => {
    await script(WRITE);
    const pane = new TmuxPane(
      [process.execPath, CLI_BIN, "run", "w", "--script", "script.json", "--code-mode", "on"]
        .map(shellQuote)
        .join(" "),
      { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
      workspace.root,
    );
    try {
      const screen = await pane.waitFor(/\? \[y\/N\] $/m, "the question");
      assert.match(
        screen,
        /Allow write_file \{.*\} \(a call of the program scripted_1_1\)\? \[y\/N\]/,
      );
      pane.type("y");
      pane.press("Enter");
      assert.equal(await pane.waitForExit(), 0, pane.screen());
      assert.match(pane.screen(), /code_mode -> ok: written/);
    } finally {
      pane.close();
    }
  });
});
