// "Did you mean" in a real terminal (tmux): a mistyped command, an option of the command it was
// given to, a tool name (with the pointer to `pseudoclaude tools`) and a chat slash command.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN as BIN } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const TIMEOUT = { timeout: 60_000 };

/** A pane running `line` in a fresh workspace with its own HOME. */
async function withPane(
  line: (workspace: TempWorkspace) => Promise<string>,
  body: (pane: TmuxPane) => Promise<void>,
): Promise<void> {
  const workspace = await createTempWorkspace("pc-suggest-");
  const pane = new TmuxPane(
    await line(workspace),
    { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
    workspace.root,
  );
  try {
    await body(pane);
  } finally {
    pane.close();
    await workspace.cleanup();
  }
}

/** `pseudoclaude ARGS; echo "[LABEL exited N]"`, for several commands in one pane. */
function step(label: string, args: string[]): string {
  const cli = [process.execPath, BIN, ...args].map(shellQuote).join(" ");
  return `${cli}; echo "[${label} exited $?]"`;
}

describe("pseudoclaude suggestions in a terminal", () => {
  it(
    "suggests the command, the option and the tool that were meant, with the exit codes kept",
    TIMEOUT,
    async () => {
      const steps = [
        step("command", ["chta"]),
        step("option", ["run", "hi", "--modle", "m"]),
        step("foreign option", ["call", "read_file", "--max-turn", "2"]),
        step("tool", ["call", "reed_file"]),
        step("far", ["call", "zzzzzz"]),
      ];
      await withPane(
        async () => steps.join("; "),
        async (pane) => {
          const screen = await pane.waitFor(/\[far exited \d+\]/, "every command", 30_000);
          assert.match(
            screen,
            /pseudoclaude: Unknown command "chta"\. Did you mean "chat"\? Commands: tools, .*\n\[command exited 2\]/,
          );
          assert.match(
            screen,
            /Unknown option '--modle' for "run"\. Did you mean --model\? Run "pseudoclaude run --help" for the options.*\n\[option exited 2\]/,
          );
          // `call` takes no --max-turns, so nothing close is offered; its help is.
          assert.match(
            screen,
            /Unknown option '--max-turn' for "call"\. Run "pseudoclaude call --help".*\n\[foreign option exited 2\]/,
          );
          assert.match(
            screen,
            /unknown_tool: Unknown tool "reed_file"\.\nDid you mean "read_file"\? Run "pseudoclaude tools" for the list\.\n\[tool exited 1\]/,
          );
          assert.match(
            screen,
            /Unknown tool "zzzzzz"\.\nRun "pseudoclaude tools" for the list\.\n\[far exited 1\]/,
          );
        },
      );
    },
  );

  it("suggests the slash command that was meant in chat", TIMEOUT, async () => {
    await withPane(
      async (workspace) => {
        await workspace.write("script.json", JSON.stringify([{ text: "Hi." }]));
        return [process.execPath, BIN, "chat", "--script", "script.json"].map(shellQuote).join(" ");
      },
      async (pane) => {
        await pane.waitFor(/Type a message, or \/help\./, "the chat to be ready");
        pane.type("/tols");
        pane.press("Enter");
        await pane.waitFor(/Unknown command "\/tols"\. Did you mean \/tools\? Commands:/, "it");
        pane.type("/exit");
        pane.press("Enter");
        assert.equal(await pane.waitForExit(), 0);
      },
    );
  });
});
