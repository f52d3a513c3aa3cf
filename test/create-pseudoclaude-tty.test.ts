// create-pseudoclaude for a person at a terminal (tmux): it asks for the folder and the package
// name, each with a default, and writes the app where the answers say; --yes asks nothing.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const BIN = fileURLToPath(
  new URL("../../packages/create-pseudoclaude/dist/src/bin.js", import.meta.url),
);
const TIMEOUT = { timeout: 60_000 };

describe("create-pseudoclaude in a terminal", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "pc-create-tty-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  async function withPane(args: string[], body: (pane: TmuxPane) => Promise<void>) {
    const line = [process.execPath, BIN, ...args].map(shellQuote).join(" ");
    const pane = new TmuxPane(line, { NO_COLOR: "1", TERM: "xterm-256color" }, root);
    try {
      await body(pane);
    } finally {
      pane.close();
    }
  }

  it("asks for the folder and the name, taking what is typed or the default", TIMEOUT, async () => {
    await withPane([], async (pane) => {
      await pane.waitFor(/Folder for the app\? \(my-agent\) $/m, "the folder question");
      pane.type("Typed Folder");
      pane.press("Enter");
      await pane.waitFor(/Package name\? \(typed-folder\) $/m, "the name question");
      pane.press("Enter");
      assert.equal(await pane.waitForExit(), 0, pane.screen());
      assert.match(pane.screen(), /Created typed-folder in Typed Folder \(\d+ files\)/);
      // The next step to paste into a shell, quoted because of the space.
      assert.match(pane.screen(), /^ {2}cd 'Typed Folder'$/m);
    });
    const manifest = JSON.parse(
      await readFile(path.join(root, "Typed Folder", "package.json"), "utf8"),
    );
    assert.equal(manifest.name, "typed-folder");
  });

  it("asks nothing with --yes, and still refuses a folder that is not empty", TIMEOUT, async () => {
    await withPane(["Typed Folder", "--yes"], async (pane) => {
      assert.equal(await pane.waitForExit(), 2, pane.screen());
      assert.doesNotMatch(pane.screen(), /\?/);
      assert.match(pane.screen(), /Typed Folder is not empty/);
    });
  });
});
