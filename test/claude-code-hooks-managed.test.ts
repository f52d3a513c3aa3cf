// Where hooks come from and which switch turns them off, through the real CLI: Claude Code's
// managed settings' hooks run without approval, its allowManagedHooksOnly runs only them, a
// disableAllHooks reaches only as far as its file may narrow (managed: every hook; the user's:
// the user's and the workspace's, not the administrator's; a repository's: only its own), and a
// repository's .claude/settings.json hook still waits for `pseudoclaude hooks approve`.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { hookSubject } from "@pseudoclaude/plugin-hooks";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { writeClaudeSettings as settings } from "./support/claude-settings.js";
import { parseJson, runCli } from "./support/cli.js";

const TIMEOUT = { timeout: 60_000 };

/** A PreToolUse hook that leaves a file named `marker` in the workspace when it runs. */
const touch = (marker: string) => `touch "$CLAUDE_PROJECT_DIR/${marker}"`;
const preToolUse = (marker: string) => ({
  PreToolUse: [{ hooks: [{ type: "command", command: touch(marker) }] }],
});

interface HooksJson {
  hooks: Array<{
    command: string;
    layer: string;
    origin: string;
    name: string | null;
    state: string;
  }>;
}

describe("Claude Code's managed hooks and hook switches, through the CLI", () => {
  let workspace: TempWorkspace;
  beforeEach(async () => {
    workspace = await createTempWorkspace("pc-hooks-managed-");
    await workspace.write(
      "script.json",
      JSON.stringify([
        { tool_calls: [{ name: "run_command", arguments: { command: "true" } }] },
        { text: "ok" },
      ]),
    );
  });
  afterEach(() => workspace.cleanup());

  /** One run with one tool call; `trust`: consent to the workspace for this run. */
  const runOnce = (trust = false) =>
    runCli(workspace, [
      "run",
      "go",
      "--script",
      "script.json",
      "--mode",
      "bypass",
      ...(trust ? ["--trust-project"] : []),
    ]);
  const ran = (marker: string) => existsSync(path.join(workspace.root, marker));

  it("a managed hook runs without approval, with Claude Code's semantics", TIMEOUT, async () => {
    await settings(workspace, "managed", { hooks: preToolUse("managed") });
    const listed = parseJson<HooksJson>(await runCli(workspace, ["hooks", "--json"])).hooks;
    assert.deepEqual(
      listed.map((hook) => [hook.layer, hook.origin, hook.state, hook.name]),
      [["managed", "claude-code", "active", null]],
    );
    const run = await runOnce();
    assert.equal(run.code, 0, run.stderr);
    assert.ok(ran("managed"), "the administrator's hook ran, nobody approved it");
    assert.doesNotMatch(run.stderr, /not approved/);
  });

  it(
    "managed allowManagedHooksOnly runs only managed hooks, and says how many it stopped",
    TIMEOUT,
    async () => {
      const managed = await settings(workspace, "managed", {
        allowManagedHooksOnly: true,
        hooks: preToolUse("managed"),
      });
      await settings(workspace, "user", { hooks: preToolUse("claude-user") });
      await workspace.writeConfig("user", JSON.stringify({ hooks: preToolUse("ours") }));
      const run = await runOnce();
      assert.equal(run.code, 0, run.stderr);
      assert.ok(ran("managed"));
      assert.ok(!ran("claude-user"), "the user's Claude Code hook was stopped");
      assert.ok(!ran("ours"), "the user's own config hook was stopped");
      const said = run.stderr.match(/2 hooks do not run: allowManagedHooksOnly in (\S+)/g) ?? [];
      assert.equal(said.length, 1, run.stderr);
      assert.ok(said[0]!.endsWith(managed), said[0]);
      assert.match(run.stderr, /lets only managed hooks run/);
    },
  );

  it(
    "allowManagedHooksOnly in the user's own file is ignored, with a warning",
    TIMEOUT,
    async () => {
      const user = await settings(workspace, "user", {
        allowManagedHooksOnly: true,
        hooks: preToolUse("claude-user"),
      });
      const run = await runOnce();
      assert.equal(run.code, 0, run.stderr);
      assert.ok(ran("claude-user"), "only managed settings can stop the user's hooks");
      // A warning at the key's line (2 in the file written above).
      assert.ok(run.stderr.includes(`warning config [${user}:2:3 `), run.stderr);
      assert.ok(run.stderr.includes(`allowManagedHooksOnly in ${user} is ignored`), run.stderr);
    },
  );

  it(
    "the user's disableAllHooks stops the user's and the workspace's hooks, not a managed one",
    TIMEOUT,
    async () => {
      const user = await settings(workspace, "user", {
        disableAllHooks: true,
        hooks: preToolUse("claude-user"),
      });
      await workspace.writeConfig("user", JSON.stringify({ hooks: preToolUse("ours") }));
      await settings(workspace, "project", { hooks: preToolUse("project") });
      await settings(workspace, "local", { hooks: preToolUse("local") });
      await settings(workspace, "managed", { hooks: preToolUse("managed") });
      // Consent to the workspace for the run, so only the switch can keep its hooks from running.
      const run = await runOnce(true);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(ran("managed"), "the administrator's hook still runs");
      for (const marker of ["claude-user", "ours", "project", "local"])
        assert.ok(!ran(marker), `${marker} did not run`);
      assert.ok(run.stderr.includes(`4 hooks do not run: disableAllHooks in ${user}`), run.stderr);
      // Turned off, the workspace's hooks ask for no approval either.
      assert.deepEqual(
        parseJson<HooksJson>(await runCli(workspace, ["hooks", "--json"])).hooks.map(
          (h) => h.layer,
        ),
        ["managed"],
      );
    },
  );

  it("managed disableAllHooks stops every hook, the administrator's own too", TIMEOUT, async () => {
    await settings(workspace, "managed", { disableAllHooks: true, hooks: preToolUse("managed") });
    await settings(workspace, "user", { hooks: preToolUse("claude-user") });
    const run = await runOnce();
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!ran("managed") && !ran("claude-user"));
    assert.match(run.stderr, /2 hooks do not run: disableAllHooks in \S+ \(managed settings\)/);
  });

  it("a repository's disableAllHooks does not stop the user's hook", TIMEOUT, async () => {
    await settings(workspace, "user", { hooks: preToolUse("claude-user") });
    await workspace.writeConfig("user", JSON.stringify({ hooks: preToolUse("ours") }));
    const project = await settings(workspace, "project", {
      disableAllHooks: true,
      hooks: preToolUse("project"),
    });
    await settings(workspace, "local", { hooks: preToolUse("local") });
    const run = await runOnce(true);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(ran("claude-user") && ran("ours"), "the user's guards still run");
    assert.ok(!ran("project") && !ran("local"), "the workspace's own hooks are off");
    assert.ok(run.stderr.includes(`2 hooks do not run: disableAllHooks in ${project}`), run.stderr);
    assert.match(run.stderr, /a workspace cannot turn them off/);
  });

  it(
    "a hook in .claude/settings.json waits for hooks approve, under the name it always had",
    TIMEOUT,
    async () => {
      await settings(workspace, "project", { hooks: preToolUse("project") });
      const before = await runOnce();
      assert.equal(before.code, 0, before.stderr);
      assert.ok(!ran("project"), "not approved: it did not run");
      assert.match(before.stderr, /is not approved, so it does not run/);
      const [listed] = parseJson<HooksJson>(await runCli(workspace, ["hooks", "--json"])).hooks;
      // The consent name (and digest) are the command's alone: approvals given before still hold.
      const subject = hookSubject({ event: "PreToolUse", matcher: "", command: touch("project") });
      assert.deepEqual(
        [listed?.layer, listed?.origin, listed?.state, listed?.name],
        ["project", "claude-code", "needs-approval", subject.name],
      );
      const approved = await runCli(workspace, ["hooks", "approve"]);
      assert.match(approved.stdout, new RegExp(`approved ${subject.name}: PreToolUse: touch`));
      assert.equal((await runOnce()).code, 0);
      assert.ok(ran("project"), "approved: it ran");
    },
  );
});
