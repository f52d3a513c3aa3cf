// An administrator's `ask` rule (managed settings) wants a person's answer: `--yes` does not
// give it and bypass mode does not skip it; in a real terminal the person is asked, --yes or
// not. The user's own ask rule stays theirs to answer with --yes or skip in bypass mode.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { managedSettingsFile, writeClaudeSettings } from "./support/claude-settings.js";
import { CLI_BIN, runCli } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const ECHO = ["call", "run_command", '{"command":"echo [ran]"}'];

describe("a managed ask rule", () => {
  let workspace: TempWorkspace;
  let managedFile: string;
  beforeEach(async () => {
    workspace = await createTempWorkspace("pc-managed-ask-");
    managedFile = managedSettingsFile(workspace.home);
    // The user's own file would let it run with no question at all.
    await writeClaudeSettings(workspace, "user", {
      permissions: { allow: ["Bash(echo:*)"], defaultMode: "bypassPermissions" },
    });
  });
  afterEach(() => workspace.cleanup());

  it("is not answered by --yes, nor skipped by bypass mode, where no person can answer", async () => {
    await writeClaudeSettings(workspace, "managed", { permissions: { ask: ["Bash(echo:*)"] } });
    for (const extra of [["--yes"], ["--yes", "--mode", "bypass"]]) {
      const run = await runCli(workspace, [...ECHO, ...extra]);
      assert.equal(run.code, 1, `${extra.join(" ")}: ${run.stdout}`);
      assert.doesNotMatch(run.stdout, /\[ran\]/);
      assert.match(
        run.stderr,
        /Rule ask: "Bash\(echo:\*\)" \(managed\).*--yes does not answer for them/s,
      );
    }
  });

  it("the same rule in the user's own file is theirs: --yes answers it, bypass skips it", async () => {
    await writeClaudeSettings(workspace, "user", {
      permissions: { ask: ["Bash(echo:*)"] },
    });
    const yes = await runCli(workspace, [...ECHO, "--yes"]);
    assert.equal(yes.code, 0, yes.stderr);
    assert.match(yes.stdout, /\[ran\]/);
    const bypass = await runCli(workspace, [...ECHO, "--mode", "bypass"]);
    assert.equal(bypass.code, 0, bypass.stderr);
    assert.match(bypass.stdout, /\[ran\]/);
  });

  it("in a terminal, asks the person even with --yes, and runs once they say yes", {
    timeout: 30_000,
  }, async () => {
    await writeClaudeSettings(workspace, "managed", { permissions: { ask: ["Bash(echo:*)"] } });
    const pane = new TmuxPane(
      [process.execPath, CLI_BIN, ...ECHO, "--yes"].map(shellQuote).join(" "),
      {
        HOME: workspace.home,
        NO_COLOR: "1",
        TERM: "xterm-256color",
        PSEUDOCLAUDE_CLAUDE_MANAGED_SETTINGS: managedFile,
      },
      workspace.root,
    );
    try {
      const screen = await pane.waitFor(/Allow run_command .*\? \[y\/N\] $/m, "the question");
      assert.match(screen, /Rule ask: "Bash\(echo:\*\)" \(managed\)/);
      pane.type("y");
      pane.press("Enter");
      assert.equal(await pane.waitForExit(), 0, pane.screen());
      assert.match(pane.screen(), /\[ran\]/);
    } finally {
      pane.close();
    }
  });
});
