// Sessions in `pseudoclaude chat`, in a real terminal (tmux): `/resume` lists the saved
// sessions, `/resume ID` continues one (the model gets its conversation), `chat --continue`
// starts in the latest one.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN, parseJson, runCli } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const TIMEOUT = { timeout: 60_000 };

async function withSavedRun(
  body: (workspace: TempWorkspace, id: string) => Promise<void>,
): Promise<void> {
  const workspace = await createTempWorkspace("pc-chat-sessions-");
  try {
    await workspace.write("first.json", JSON.stringify([{ text: "Noted: heron." }]));
    const first = await runCli(workspace, [
      "run",
      "Remember: the code word is heron",
      "--script",
      "first.json",
      "--json",
    ]);
    assert.equal(first.code, 0, first.stderr);
    await body(workspace, parseJson<{ session_id: string }>(first).session_id);
  } finally {
    await workspace.cleanup();
  }
}

function chat(workspace: TempWorkspace, ...flags: string[]): TmuxPane {
  const command = [process.execPath, CLI_BIN, "chat", "--script", "chat.json", ...flags]
    .map(shellQuote)
    .join(" ");
  return new TmuxPane(
    command,
    { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
    workspace.root,
  );
}

const recall = [
  { expect: { messages_include: ["the code word is heron"] }, text: "The code word is heron." },
];

describe("pseudoclaude chat: sessions", () => {
  it("lists sessions with /resume and continues one with /resume ID", TIMEOUT, async () => {
    await withSavedRun(async (workspace, id) => {
      await workspace.write("chat.json", JSON.stringify(recall));
      const pane = chat(workspace);
      try {
        await pane.waitFor(/Type a message, or \/help/, "the chat to start");
        pane.type("/resume");
        pane.press("Enter");
        await pane.waitFor(
          new RegExp(`^${id}  .*1 turn  0/0 tokens  "Remember: the code word is heron"$`, "m"),
          "the saved session in the list",
        );
        pane.type(`/resume ${id}`);
        pane.press("Enter");
        await pane.waitFor(
          new RegExp(`Continuing session ${id} \\(2 messages\\)\\.`),
          "the resumed session",
        );
        pane.type("What was the code word?");
        pane.press("Enter");
        await pane.waitFor(/The code word is heron\./, "the answer from the resumed conversation");
        pane.type("/exit");
        pane.press("Enter");
        assert.equal(await pane.waitForExit(), 0);
      } finally {
        pane.close();
      }
      const sessions = parseJson<{ sessions: Array<{ id: string; turns: number }> }>(
        await runCli(workspace, ["sessions", "--json"]),
      ).sessions;
      assert.deepEqual(
        sessions.map((session) => [session.id, session.turns]),
        [[id, 2]],
        "the chat went on in that session",
      );
    });
  });

  it("starts in the latest session with chat --continue", TIMEOUT, async () => {
    await withSavedRun(async (workspace, id) => {
      await workspace.write("chat.json", JSON.stringify(recall));
      const pane = chat(workspace, "--continue");
      try {
        await pane.waitFor(
          new RegExp(`Continuing session ${id} \\(2 messages\\)\\.`),
          "the note that it continues",
        );
        pane.type("Code word?");
        pane.press("Enter");
        await pane.waitFor(/The code word is heron\./, "the answer");
        pane.type("/exit");
        pane.press("Enter");
        assert.equal(await pane.waitForExit(), 0);
      } finally {
        pane.close();
      }
    });
  });
});
