// `pseudoclaude hooks` with the real CLI: the hooks of every layer listed with their state, a
// project hook (.claude/settings.json of the workspace) that runs only once approved, revoked
// again, and `mcp revoke` leaving hook approvals alone.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { parseJson, runCli } from "./support/cli.js";

interface HooksJson {
  hooks: Array<{
    event: string;
    command: string;
    layer: string;
    name: string | null;
    state: string;
  }>;
}

describe("pseudoclaude hooks", () => {
  it("lists hooks, and runs a project hook only once approved", { timeout: 60_000 }, async () => {
    const workspace = await createTempWorkspace("pc-hooks-cli-");
    try {
      await workspace.writeConfig(
        "user",
        'hooks:\n  Stop:\n    - hooks:\n        - { type: command, command: "true" }\n',
      );
      await workspace.write(
        ".claude/settings.json",
        JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [{ type: "command", command: 'touch "$CLAUDE_PROJECT_DIR/ran"' }],
              },
            ],
          },
        }),
      );
      await workspace.write(
        "script.json",
        JSON.stringify([
          { tool_calls: [{ name: "run_command", arguments: { command: "true" } }] },
          { text: "ok" },
        ]),
      );
      const list = async () =>
        parseJson<HooksJson>(await runCli(workspace, ["hooks", "--json"])).hooks;
      const before = await list();
      assert.deepEqual(
        before.map((hook) => [hook.event, hook.layer, hook.state]),
        [
          ["Stop", "user", "active"],
          ["PreToolUse", "project", "needs-approval"],
        ],
      );
      const name = before[1]?.name ?? "";
      assert.match(name, /^hook:PreToolUse:[0-9a-f]{8}$/);
      const runOnce = () =>
        runCli(workspace, ["run", "go", "--script", "script.json", "--mode", "bypass"]);

      const unapproved = await runOnce();
      assert.equal(unapproved.code, 0, unapproved.stderr);
      assert.ok(!existsSync(path.join(workspace.root, "ran")), "not approved: it did not run");
      assert.match(
        unapproved.stderr,
        /is not approved, so it does not run\. Approve it with: pseudoclaude hooks approve/,
      );

      const approved = await runCli(workspace, ["hooks", "approve"]);
      assert.match(approved.stdout, new RegExp(`approved ${name}: PreToolUse \\(Bash\\): touch`));
      assert.equal((await list())[1]?.state, "approved");
      await runCli(workspace, ["mcp", "revoke"]);
      assert.equal((await list())[1]?.state, "approved", "mcp revoke leaves hooks alone");
      assert.equal((await runOnce()).code, 0);
      assert.ok(existsSync(path.join(workspace.root, "ran")), "approved: it ran");

      await rm(path.join(workspace.root, "ran"));
      const revoked = await runCli(workspace, ["hooks", "revoke", "--json"]);
      assert.deepEqual(
        JSON.parse(revoked.stdout).revoked.map((record: { name: string }) => record.name),
        [name],
      );
      await runOnce();
      assert.ok(!existsSync(path.join(workspace.root, "ran")), "revoked: it no longer runs");
    } finally {
      await workspace.cleanup();
    }
  });
});
