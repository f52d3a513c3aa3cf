// Code mode in `pseudoclaude chat` in a real terminal (tmux): the program's source under its
// call, each of its calls indented under it, the approval naming the program, and the answer.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const PROGRAM = `const note = await tools.read_file({ path: "note.txt" });
await tools.write_file({ path: "copy.txt", content: note });
return "copied";`;

describe("code mode in chat", () => {
  it("shows the program and its calls nested, asks about its write, answers", {
    timeout: 60_000,
  }, async () => {
    const workspace = await createTempWorkspace("pc-code-mode-chat-");
    await workspace.write("note.txt", "hello\n");
    await workspace.write(
      "script.json",
      JSON.stringify([
        { tool_calls: [{ id: "p1", name: "code_mode", arguments: { code: PROGRAM } }] },
        { text: "Copied the note." },
      ]),
    );
    const pane = new TmuxPane(
      [process.execPath, CLI_BIN, "chat", "--script", "script.json", "--code-mode", "on"]
        .map(shellQuote)
        .join(" "),
      { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
      workspace.root,
    );
    try {
      await pane.waitFor(/Type a message, or \/help/, "the chat");
      pane.type("copy the note");
      pane.press("Enter");
      const asked = await pane.waitFor(
        /Allow write_file .*\(a call of the program p1\)\? \[y\] once/,
        "the approval",
      );
      assert.match(asked, /● code_mode\n {2}\| const note = await tools\.read_file/);
      assert.match(asked, /^ {4}● read_file \{"path":"note\.txt"\}$/m);
      assert.match(asked, /^ {4}● write_file /m);
      pane.type("y");
      pane.press("Enter");
      await pane.waitFor(/Copied the note\./, "the answer");
      assert.match(pane.screen(), /code_mode .*ok: copied/);
      // read_file's text is numbered for the model (`     1\thello`); the program copied it.
      assert.match(await readFile(path.join(workspace.root, "copy.txt"), "utf8"), /1\thello/);
      pane.type("/exit");
      pane.press("Enter");
      assert.equal(await pane.waitForExit(), 0);
    } finally {
      pane.close();
      await workspace.cleanup();
    }
  });
});
