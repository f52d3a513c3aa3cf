// MCP prompts in `pseudoclaude chat`, in a real terminal (tmux), against the v2 fixture server
// (plugins/mcp/test/fixtures/modern.ts, whose `greet` prompt completes its `who` argument): `/prompts`
// lists them, Tab completes the server, the prompt and the argument's values (the server's
// `completion/complete`), `/prompt` sends the filled prompt as the message, and a required
// argument left out is asked for.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN } from "./support/cli.js";
import { approvedProjectServer } from "./support/project-server.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const MODERN = fileURLToPath(import.meta.resolve("#mcp-fixtures/modern.js"));

describe("pseudoclaude chat: MCP prompts", () => {
  it("lists, completes with the server's completions, fills and sends a prompt", {
    timeout: 90_000,
  }, async () => {
    const workspace = await createTempWorkspace("pc-chat-prompts-");
    try {
      await approvedProjectServer(workspace, "modern", MODERN);
      await workspace.write(
        "script.json",
        JSON.stringify([
          { expect: { messages_include: ["Say hello to Grace."] }, text: "Hello, Grace!" },
          { expect: { messages_include: ["Say hello to Ada."] }, text: "Hi, Ada." },
        ]),
      );
      const pane = new TmuxPane(
        [process.execPath, CLI_BIN, "chat", "--script", "script.json"].map(shellQuote).join(" "),
        { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
        workspace.root,
      );
      try {
        await pane.waitFor(/Type a message, or \/help/, "the chat");
        await pane.waitFor(/mcp:modern is ready/, "the server");
        pane.type("/prompts");
        pane.press("Enter");
        await pane.waitFor(/^modern greet \(who\) — Greet someone\.$/m, "the prompt listed");

        // Tab: the server, the prompt, the argument, then its value from the server.
        pane.type("/prompt mo");
        pane.press("Tab");
        await pane.waitFor(/> \/prompt modern $/m, "the server completed");
        pane.type("gr");
        pane.press("Tab");
        await pane.waitFor(/> \/prompt modern greet $/m, "the prompt completed");
        pane.type("w");
        pane.press("Tab");
        await pane.waitFor(/> \/prompt modern greet who=$/m, "the argument completed");
        pane.type("Gr");
        pane.press("Tab");
        await pane.waitFor(/> \/prompt modern greet who=Grace$/m, "the value completed");
        pane.press("Enter");
        await pane.waitFor(
          /Sending prompt greet of modern \(\d+ characters\)\./,
          "the prompt sent",
        );
        await pane.waitFor(/Hello, Grace!/, "the answer to it");

        // A required argument left out is asked for.
        pane.type("/prompt modern greet");
        pane.press("Enter");
        await pane.waitFor(/who: $/m, "the question for the argument");
        pane.type("Ada");
        pane.press("Enter");
        await pane.waitFor(/Hi, Ada\./, "the answer to the filled prompt");

        pane.type("/prompt modern nothing");
        pane.press("Enter");
        await pane.waitFor(/No prompt "nothing" on server "modern"/, "an unknown prompt said");
        pane.type("/exit");
        pane.press("Enter");
        assert.equal(await pane.waitForExit(), 0);
      } finally {
        pane.close();
      }
    } finally {
      await workspace.cleanup();
    }
  });
});
