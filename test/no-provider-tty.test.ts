// `run` and `chat` with no model provider, in a real terminal (tmux): both say how to choose
// one (flag, key variables, offline script, config key) instead of only that there is none.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN as BIN } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const TIMEOUT = { timeout: 60_000 };

/** What both commands print, whatever keys the machine running the test has set. */
const HELP =
  /No model provider is configured\. Choose one:\n(?: {2}\w+ is set: add --provider \w+\n)* {2}--provider anthropic +reads ANTHROPIC_API_KEY\n {2}--provider openai +reads OPENAI_API_KEY\n.*OPENAI_BASE_URL and --model\n {2}--script FILE +a scripted model, offline.*\nor once for every run, in ~\/\.PseudoClaude\/config\.yaml.*\n {2}provider:\n {4}name: anthropic/;

async function withPane(args: string[], body: (pane: TmuxPane) => Promise<void>) {
  const workspace = await createTempWorkspace("pc-no-provider-");
  // No key in the pane, so the test reads the same on every machine.
  const line = ["env", "-u", "ANTHROPIC_API_KEY", "-u", "OPENAI_API_KEY", process.execPath, BIN]
    .concat(args)
    .map(shellQuote)
    .join(" ");
  const pane = new TmuxPane(
    line,
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

describe("pseudoclaude without a model provider, in a terminal", () => {
  it("run says how to choose a provider and exits 2", TIMEOUT, async () => {
    await withPane(["run", "hi"], async (pane) => {
      assert.equal(await pane.waitForExit(), 2);
      assert.match(pane.screen(), new RegExp(`pseudoclaude run: ${HELP.source}`));
    });
  });

  it("chat says it at start and again for a message, and goes on", TIMEOUT, async () => {
    await withPane(["chat"], async (pane) => {
      await pane.waitFor(/PseudoClaude chat · none \(none\)/, "the header");
      await pane.waitFor(HELP, "the note at start");
      pane.type("hi");
      pane.press("Enter");
      await pane.waitFor(new RegExp(`error \\(no_provider\\): ${HELP.source}`), "the error");
      // Slash commands need no model: the session goes on.
      pane.type("/mode");
      pane.press("Enter");
      await pane.waitFor(/Mode: default/, "a slash command");
      pane.type("/exit");
      pane.press("Enter");
      assert.equal(await pane.waitForExit(), 0);
    });
  });
});
