// `/compact` in `pseudoclaude chat`: in a real terminal (tmux) the compaction is said and the
// model goes on from the summary; with --json (a pipe) the compaction is an event with its
// token counts.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const TIMEOUT = { timeout: 60_000 };
// Long answers, so the summary is shorter than what it replaces.
const DETAIL = " It has a long history, told here at length.".repeat(40);
const SCRIPT = [
  { text: `The capital of Portugal is Lisbon.${DETAIL}` },
  { text: `The capital of Norway is Oslo.${DETAIL}` },
  // The summary request of /compact, through the same scripted model.
  {
    expect: { system_includes: ["You summarise"] },
    text: "Summary: capitals of Portugal and Norway.",
  },
  {
    expect: { messages_include: ["Summary: capitals of Portugal and Norway."] },
    text: "Lisbon and Oslo.",
  },
];

describe("pseudoclaude chat: /compact", () => {
  it(
    "compacts in a terminal, says so, and the model continues from the summary",
    TIMEOUT,
    async () => {
      const workspace = await createTempWorkspace("pc-chat-compact-");
      await workspace.write("script.json", JSON.stringify(SCRIPT));
      const command = [process.execPath, CLI_BIN, "chat", "--script", "script.json"]
        .map(shellQuote)
        .join(" ");
      const pane = new TmuxPane(
        command,
        { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
        workspace.root,
      );
      try {
        await pane.waitFor(/Type a message, or \/help/, "the chat");
        for (const [question, answer] of [
          ["Capital of Portugal?", /Lisbon\./],
          ["Capital of Norway?", /Oslo\./],
        ] as const) {
          pane.type(question);
          pane.press("Enter");
          await pane.waitFor(answer, "the answer");
        }
        pane.type("/compact");
        pane.press("Enter");
        await pane.waitFor(
          /Compacted the conversation \(\d+ older messages summarised\): ~[\d,]+ -> ~[\d,]+ tokens\. The full transcript stays in the session\./,
          "the compaction note",
        );
        await pane.waitFor(/^\d+ messages now\.$/m, "the command's answer");
        pane.type("Which two?");
        pane.press("Enter");
        await pane.waitFor(/Lisbon and Oslo\./, "the answer from the summary");
        pane.type("/exit");
        pane.press("Enter");
        assert.equal(await pane.waitForExit(), 0);
      } finally {
        pane.close();
        await workspace.cleanup();
      }
    },
  );

  it("shows the compaction as a JSON event with its token counts", TIMEOUT, async () => {
    const workspace = await createTempWorkspace("pc-chat-compact-json-");
    try {
      await workspace.write("script.json", JSON.stringify(SCRIPT.slice(0, 3)));
      const child = spawn(
        process.execPath,
        [CLI_BIN, "chat", "--script", "script.json", "--json"],
        {
          cwd: workspace.root,
          env: { ...process.env, HOME: workspace.home },
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stdin.end("Capital of Portugal?\nCapital of Norway?\n/compact\n");
      assert.equal(await new Promise((resolve) => child.on("close", resolve)), 0);
      const events = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      const compaction = events.find((event) => event.type === "compaction");
      assert.ok(compaction, stdout);
      assert.equal(compaction.stage, "summary");
      assert.ok(compaction.tokens_after < compaction.tokens_before);
      assert.equal(compaction.summarized_messages, 2);
      const starts = events.filter((event) => event.type === "turn-start");
      assert.ok(starts.every((event) => typeof event.estimated_tokens === "number"));
      const ready = events.find((event) => event.type === "ready");
      assert.match(ready.session_id, /^[0-9a-f-]{36}$/);
    } finally {
      await workspace.cleanup();
    }
  });
});
