// The approvals `pseudoclaude trust` keeps: listing, approving all at once, revoking, refusing an
// unknown name, and honouring records an older release wrote with its own digest.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { parseJson } from "./support/cli.js";
import {
  canonical,
  source,
  spawns,
  states,
  stdioServer,
  stdioServerYaml,
  TIMEOUT,
  type ToolsJson,
  withScene,
} from "./support/project-trust-scene.js";

describe("what a workspace's files may widen only with the user's consent", () => {
  it(
    "honours an approval of an older release, recorded with its legacy digest, without asking again",
    TIMEOUT,
    async () => {
      await withScene(
        "pc-trust-legacy-",
        async ({ workspace, cli, trust, marker, approvalsFile }) => {
          const spawnLog = path.join(workspace.root, "spawned.log");
          const server = stdioServer(spawnLog, marker);
          await workspace.writeConfig(
            "project",
            `mcp_servers:\n${stdioServerYaml("beh", spawnLog, marker)}\n`,
          );
          const legacy = `sha256:${createHash("sha256")
            .update(
              canonical({
                transport: "stdio",
                command: server.command,
                args: server.args,
                cwd: null,
                env: server.env,
                inherit_env: false,
              }),
            )
            .digest("hex")}`;
          const writeApprovals = async (digest: string) => {
            await mkdir(path.dirname(approvalsFile), { recursive: true });
            await writeFile(
              approvalsFile,
              JSON.stringify({
                version: 1,
                workspaces: {
                  [realpathSync(workspace.root)]: {
                    "mcp_server:beh": {
                      kind: "mcp_server",
                      name: "beh",
                      digest,
                      summary: "x",
                      approvedAt: "2026-01-01T00:00:00.000Z",
                    },
                  },
                },
              }),
            );
          };

          // A record of another digest does not count (so the one below counts for its digest).
          await writeApprovals(`sha256:${"0".repeat(64)}`);
          const other = parseJson<ToolsJson>(await cli(["tools", "--json"]));
          assert.equal(source(other, "mcp:beh")?.state, "needs-approval");
          assert.equal(await spawns(spawnLog), 0);

          await writeApprovals(legacy);
          const tools = parseJson<ToolsJson>(await cli(["tools", "--json"]));
          assert.equal(source(tools, "mcp:beh")?.state, "ready");
          assert.equal(await spawns(spawnLog), 1);
          const listed = await trust();
          assert.equal(states(listed)["mcp_server:beh"], "approved");
          assert.notEqual(listed.requests[0]?.digest, legacy, "today's digest is another one");
          assert.deepEqual(
            listed.approvals.map((approval) => [approval.id, approval.digest, approval.current]),
            [["mcp_server:beh", legacy, true]],
          );
        },
      );
    },
  );

  it(
    "lists requests of several kinds, approves them all at once, revokes one, and refuses an unknown name",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-list-", async ({ workspace, cli, trust, marker }) => {
        const spawnLog = path.join(workspace.root, "spawned.log");
        await workspace.writeConfig(
          "project",
          `permissions:\n  allow: ["run_command(npm test*)"]\nmcp_servers:\n${stdioServerYaml("beh", spawnLog, marker)}\n`,
        );
        await workspace.write(
          ".claude/settings.json",
          JSON.stringify({
            hooks: {
              PreToolUse: [
                {
                  matcher: "Bash",
                  hooks: [{ type: "command", command: 'touch "$CLAUDE_PROJECT_DIR/hook-ran"' }],
                },
              ],
            },
          }),
        );

        const listed = await trust();
        assert.equal(listed.workspace, realpathSync(workspace.root));
        const hook = listed.requests.find((request) => request.kind === "hook");
        assert.ok(hook, JSON.stringify(listed.requests));
        assert.deepEqual(states(listed), {
          "setting:permissions": "needs-approval",
          "mcp_server:beh": "needs-approval",
          [hook.id]: "needs-approval",
        });
        for (const request of listed.requests) {
          assert.match(request.digest, /^sha256:[0-9a-f]{64}$/);
          assert.ok(request.summary.length > 0);
        }
        assert.deepEqual(listed.approvals, []);

        const approve = await cli(["trust", "approve", "--json"]);
        assert.equal(approve.code, 0, approve.stderr);
        const approved = parseJson<{
          approved: Array<{ id: string }>;
          already_approved: Array<{ id: string }>;
        }>(approve);
        assert.deepEqual(
          approved.approved.map((subject) => subject.id).sort(),
          Object.keys(states(listed)).sort(),
        );
        assert.deepEqual(approved.already_approved, []);
        assert.equal(await spawns(spawnLog), 0, "approving runs nothing");
        const all = await trust();
        assert.ok(
          all.requests.every((request) => request.state === "approved"),
          JSON.stringify(all.requests),
        );
        assert.ok(all.approvals.every((approval) => approval.current));

        const revoke = await cli(["trust", "revoke", "setting:permissions", "--json"]);
        assert.equal(revoke.code, 0, revoke.stderr);
        assert.deepEqual(
          parseJson<{ revoked: Array<{ id: string }> }>(revoke).revoked.map((r) => r.id),
          ["setting:permissions"],
        );
        assert.deepEqual(states(await trust()), {
          "setting:permissions": "needs-approval",
          "mcp_server:beh": "approved",
          [hook.id]: "approved",
        });

        const unknown = await cli(["trust", "approve", "mcp_server:nope"]);
        assert.equal(unknown.code, 2, unknown.stdout + unknown.stderr);
        assert.match(unknown.stderr, /mcp_server:nope/);
        assert.equal(states(await trust())["setting:permissions"], "needs-approval");

        const table = await cli(["trust", "table"]);
        assert.equal(table.code, 0, table.stderr);
        assert.match(table.stdout, /^\| Setting in the workspace \|/);
        assert.match(table.stdout, /`permissions\.allow`/);
        assert.match(table.stdout, /`provider\.base_url`/);
      });
    },
  );
});
