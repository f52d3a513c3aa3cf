import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixture, parseJson, runCli, withWorkspace } from "./support/cli.js";

interface TrustJson {
  workspace: string;
  requests: Array<{ id: string; state: string; summary: string; effects: string[] }>;
  approvals: Array<{ id: string; current: boolean }>;
}

const PLUGIN = fixture("section-plugin.mjs");

describe("pseudoclaude trust", () => {
  it("lists, approves and revokes what a --plugin's own section asks for", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("project", "team:\n  webhook: https://hooks.example.com/x\n");
      const listed = parseJson<TrustJson>(
        await runCli(workspace, ["trust", "--json", "--plugin", PLUGIN]),
      );
      assert.deepEqual(
        listed.requests.map((request) => [request.id, request.state]),
        [["setting:team", "needs-approval"]],
      );
      assert.deepEqual(listed.requests[0]?.effects, [
        "posts every run's summary to https://hooks.example.com/x",
      ]);
      const approved = await runCli(workspace, [
        "trust",
        "approve",
        "setting:team",
        "--plugin",
        PLUGIN,
      ]);
      assert.equal(approved.code, 0, approved.stderr);
      assert.match(
        approved.stdout,
        /^approved setting:team: webhook https:\/\/hooks\.example\.com\/x$/m,
      );
      const after = parseJson<TrustJson>(
        await runCli(workspace, ["trust", "--json", "--plugin", PLUGIN]),
      );
      assert.equal(after.requests[0]?.state, "approved");
      assert.deepEqual(
        after.approvals.map((approval) => [approval.id, approval.current]),
        [["setting:team", true]],
      );

      await workspace.writeConfig("project", "team:\n  webhook: https://elsewhere.example.com/\n");
      const changed = parseJson<TrustJson>(
        await runCli(workspace, ["trust", "--json", "--plugin", PLUGIN]),
      );
      assert.equal(changed.requests[0]?.state, "needs-approval", "a changed URL asks again");
      assert.equal(changed.approvals[0]?.current, false);

      const revoked = parseJson<{ revoked: Array<{ id: string }> }>(
        await runCli(workspace, ["trust", "revoke", "--json", "--plugin", PLUGIN]),
      );
      assert.deepEqual(
        revoked.revoked.map((record) => record.id),
        ["setting:team"],
      );
      const unknown = await runCli(workspace, ["trust", "approve", "setting:nope"]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /This workspace asks for nothing named "setting:nope"/);
    });
  });

  it("prints the widening table with a --plugin's own settings", async () => {
    await withWorkspace(async (workspace) => {
      const plain = await runCli(workspace, ["trust", "table"]);
      const withPlugin = await runCli(workspace, ["trust", "table", "--plugin", PLUGIN]);
      assert.equal(withPlugin.code, 0, withPlugin.stderr);
      assert.ok(!plain.stdout.includes("team.webhook"));
      assert.match(
        withPlugin.stdout,
        /^\| `team\.webhook` \| `setting` \| posts every run's summary to a URL \|$/m,
      );
    });
  });
});
