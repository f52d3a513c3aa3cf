// `pseudoclaude chat` in a real terminal (tmux) asks once, at start, before a workspace's own
// hooks and agent files may run, and remembers the answer.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN, parseJson, runCli } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

describe("pseudoclaude chat: a workspace's hooks and agents", () => {
  it("asks before they run, and remembers the answer", { timeout: 60_000 }, async () => {
    const workspace = await createTempWorkspace("pc-chat-consent-");
    const pane = () =>
      new TmuxPane(
        [process.execPath, CLI_BIN, "chat", "--script", "script.json", "--mode", "bypass"]
          .map(shellQuote)
          .join(" "),
        { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
        workspace.root,
      );
    try {
      await workspace.write(
        ".claude/settings.json",
        JSON.stringify({
          hooks: {
            PreToolUse: [
              { hooks: [{ type: "command", command: 'touch "$CLAUDE_PROJECT_DIR/ran"' }] },
            ],
          },
        }),
      );
      await workspace.write(
        ".claude/agents/helper.md",
        "---\nname: helper\ndescription: Helps.\n---\nHelp.\n",
      );
      await workspace.write(
        "script.json",
        JSON.stringify([
          { tool_calls: [{ name: "run_command", arguments: { command: "true" } }] },
          { text: "Ran it." },
        ]),
      );
      const first = pane();
      try {
        await first.waitFor(
          /This workspace's own files ask for more than your settings allow:/,
          "the question",
        );
        const screen = await first.waitFor(
          /Approve them for this workspace\? \[y\/N\] $/m,
          "the prompt",
        );
        assert.match(screen, /^ {2}PreToolUse: touch /m);
        assert.match(screen, /^ {2}agent helper: Helps\.$/m);
        first.type("y");
        first.press("Enter");
        await first.waitFor(/Approved \(pseudoclaude trust revoke forgets it\)\./, "the approval");
        await first.waitFor(/Type a message, or \/help/, "the chat");
        first.type("run it");
        first.press("Enter");
        await first.waitFor(/Ran it\./, "the answer");
        assert.ok(existsSync(path.join(workspace.root, "ran")), "the approved hook ran");
        first.type("/exit");
        first.press("Enter");
        assert.equal(await first.waitForExit(), 0);
      } finally {
        first.close();
      }
      const agents = parseJson<{ agents: Array<{ state: string }> }>(
        await runCli(workspace, ["agents", "--json"]),
      );
      assert.equal(agents.agents[0]?.state, "approved", "remembered");
      const second = pane();
      try {
        const screen = await second.waitFor(
          /Type a message, or \/help/,
          "the chat, with no question",
        );
        assert.ok(!screen.includes("Approve them"), "asked only once");
        second.type("/exit");
        second.press("Enter");
        assert.equal(await second.waitForExit(), 0);
      } finally {
        second.close();
      }
    } finally {
      await workspace.cleanup();
    }
  });
});
