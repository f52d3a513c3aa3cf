// The model's Markdown in `pseudoclaude chat`, in a real terminal (tmux): rendered on a terminal
// with colour (bold without its asterisks, list bullets, a code block without its fences, a
// link with its address), as typed with NO_COLOR; and `/tools` fitted to a 110-column
// terminal, each description cut between words instead of wrapping.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN, parseJson, runCli } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const ANSWER = [
  "Read **b.txt** first.",
  "",
  "- one item",
  "- two items",
  "",
  "```js",
  "const answer = 42;",
  "```",
  "",
  "See [the docs](https://example.com/docs).",
].join("\n");

/** Chat in tmux with the scripted answer; `colour` false sets NO_COLOR. */
async function withChat(
  colour: boolean,
  width: number,
  body: (pane: TmuxPane, workspace: TempWorkspace) => Promise<void>,
): Promise<void> {
  const workspace = await createTempWorkspace("pc-chat-markdown-");
  await workspace.write("script.json", JSON.stringify([{ text: ANSWER }]));
  const command = [process.execPath, CLI_BIN, "chat", "--script", "script.json"]
    .map(shellQuote)
    .join(" ");
  const env: Record<string, string> = { HOME: workspace.home, TERM: "xterm-256color" };
  if (!colour) env.NO_COLOR = "1";
  const pane = new TmuxPane(command, env, workspace.root, width);
  try {
    await pane.waitFor(/›|>/, "the prompt");
    await body(pane, workspace);
    pane.type("/exit");
    pane.press("Enter");
    assert.equal(await pane.waitForExit(), 0);
  } finally {
    pane.close();
    await workspace.cleanup();
  }
}

describe("chat's Markdown in a terminal", { timeout: 60_000 }, () => {
  it("renders the answer's Markdown on a terminal with colour", async () => {
    await withChat(true, 160, async (pane) => {
      pane.type("What now?");
      pane.press("Enter");
      const screen = await pane.waitFor(/the docs.*https:\/\/example\.com\/docs/, "the link");
      assert.match(screen, /Read b\.txt first\./);
      assert.doesNotMatch(screen, /\*\*b\.txt\*\*/);
      assert.match(screen, /^\s+\* one item$/m);
      assert.match(screen, /^\s+const answer = 42;$/m);
      assert.doesNotMatch(screen, /```/);
    });
  });

  it("shows it as typed with NO_COLOR", async () => {
    await withChat(false, 160, async (pane) => {
      pane.type("What now?");
      pane.press("Enter");
      const screen = await pane.waitFor(
        /See \[the docs\]\(https:\/\/example\.com\/docs\)\./,
        "the answer",
      );
      assert.match(screen, /Read \*\*b\.txt\*\* first\./);
      assert.match(screen, /^```js$/m);
    });
  });

  it("fits /tools to a 110-column terminal, cutting descriptions between words", async () => {
    await withChat(true, 110, async (pane, workspace) => {
      const described = new Map(
        parseJson<{ tools: Array<{ name: string; description: string }> }>(
          await runCli(workspace, ["tools", "--json"]),
        ).tools.map((tool) => [tool.name, tool.description.split("\n")[0] ?? ""]),
      );
      pane.type("/tools");
      pane.press("Enter");
      const screen = await pane.waitFor(/Diagnostics:/, "the tools report");
      const rows = screen.split("\n").filter((line) => /^\S+\s+builtin\s/.test(line));
      assert.ok(rows.length > 3, screen);
      for (const row of rows) assert.ok(row.length <= 110, `${row.length}: ${row}`);
      const cut = rows.filter((row) => row.endsWith("…"));
      assert.ok(cut.length > 0, "some description was cut");
      for (const row of cut) {
        // What is shown is the description up to the end of a word: a space followed it.
        const [name = ""] = row.split(/\s+/);
        const shown = row.slice(row.lastIndexOf("  ") + 2, -1);
        const whole = described.get(name) ?? "";
        assert.ok(whole.startsWith(`${shown} `), `cut between words: ${row}`);
      }
    });
  });
});
