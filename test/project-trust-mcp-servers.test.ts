// A workspace's MCP servers: a stdio server is never spawned and an HTTP server never contacted
// before approval, a secret expanded into a server's URL is never shown, and a project server
// named like one of the user's is another server, not covered by the user's rules.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, it } from "node:test";
import { parseJson } from "./support/cli.js";
import {
  type CallJson,
  source,
  spawns,
  startCountingServer,
  states,
  stdioServerYaml,
  TIMEOUT,
  type ToolsJson,
  withScene,
} from "./support/project-trust-scene.js";

describe("what a workspace's files may widen only with the user's consent", () => {
  it(
    "never spawns a project stdio MCP server before approval, and asks again when a safety key is added",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-mcp-", async ({ workspace, cli, trust, marker }) => {
        const spawnLog = path.join(workspace.root, "spawned.log");
        await workspace.writeConfig(
          "project",
          `mcp_servers:\n${stdioServerYaml("beh", spawnLog, marker)}\n`,
        );
        const tools = async () => parseJson<ToolsJson>(await cli(["tools", "--json"]));
        assert.equal(source(await tools(), "mcp:beh")?.state, "needs-approval");
        const call = await cli(["call", "mcp__beh__echo", '{"text":"hi"}', "--json", "--yes"]);
        assert.notEqual(call.code, 0, "an unapproved server's tool does not exist");
        assert.equal(await spawns(spawnLog), 0, "never spawned before approval");

        const approve = await cli(["trust", "approve", "mcp_server:beh"]);
        assert.equal(approve.code, 0, approve.stderr);
        assert.equal(await spawns(spawnLog), 0, "approving runs nothing");
        const ready = await tools();
        assert.equal(source(ready, "mcp:beh")?.state, "ready");
        assert.ok(ready.tools.some((tool) => tool.name === "mcp__beh__echo"));
        assert.equal(await spawns(spawnLog), 1);
        const echoed = await cli(["call", "mcp__beh__echo", '{"text":"hi"}', "--json", "--yes"]);
        assert.equal(echoed.code, 0, echoed.stdout + echoed.stderr);
        assert.equal(await spawns(spawnLog), 2);

        // read_only: true would run its tools with no question: a new approval.
        await workspace.writeConfig(
          "project",
          `mcp_servers:\n${stdioServerYaml("beh", spawnLog, marker, ["read_only: true"])}\n`,
        );
        assert.equal(source(await tools(), "mcp:beh")?.state, "needs-approval");
        assert.equal(states(await trust())["mcp_server:beh"], "needs-approval");
        assert.equal(await spawns(spawnLog), 2, "not started again");
      });
    },
  );

  it(
    "never contacts a project HTTP server before approval, and never shows a secret expanded into its URL",
    TIMEOUT,
    async () => {
      const remote = await startCountingServer();
      try {
        await withScene("pc-trust-mcp-http-", async ({ workspace, cli, trust }) => {
          await workspace.writeConfig(
            "project",
            `mcp_servers:\n  remote:\n    type: http\n    url: ${remote.url}/mcp\n`,
          );
          const tools = await cli(["tools", "--json"]);
          assert.equal(tools.code, 0, tools.stderr);
          assert.equal(source(parseJson<ToolsJson>(tools), "mcp:remote")?.state, "needs-approval");
          const call = await cli(["call", "mcp__remote__echo", "{}", "--json", "--yes"]);
          assert.notEqual(call.code, 0);
          assert.equal(remote.paths.length, 0, "zero requests before approval");
          assert.equal(states(await trust())["mcp_server:remote"], "needs-approval");

          // The counter does count: a run that consents does contact it.
          await cli(["tools", "--json", "--trust-project"]);
          assert.ok(remote.paths.length > 0, "--trust-project contacts it");
        });

        remote.paths.length = 0;
        await withScene("pc-trust-mcp-secret-", async ({ workspace, cli }) => {
          const SECRET_PATH = `secret-path-${randomUUID()}`;
          // .mcp.json expands `${VAR}` in `url` (config.yaml only in env and headers).
          await workspace.write(
            ".mcp.json",
            JSON.stringify({
              mcpServers: { leaky: { type: "http", url: `${remote.url}/\${SECRET_PATH}/mcp` } },
            }),
          );
          const unapproved = await cli(["tools", "--json"], { SECRET_PATH });
          assert.equal(unapproved.code, 0, unapproved.stderr);
          assert.equal(
            source(parseJson<ToolsJson>(unapproved), "mcp:leaky")?.state,
            "needs-approval",
          );
          assert.equal(remote.paths.length, 0, "zero requests before approval");
          assert.ok(
            !unapproved.stdout.includes(SECRET_PATH) && !unapproved.stderr.includes(SECRET_PATH),
          );
          assert.match(unapproved.stdout, /\$\{SECRET_PATH\}/, "the URL keeps its template");

          const trusted = await cli(["tools", "--json", "--trust-project"], { SECRET_PATH });
          assert.ok(
            remote.paths.some((requested) => requested.includes(SECRET_PATH)),
            `the server was contacted at the expanded URL: ${remote.paths.join(", ")}`,
          );
          assert.ok(
            !trusted.stdout.includes(SECRET_PATH),
            `stdout shows the secret: ${trusted.stdout}`,
          );
          assert.ok(
            !trusted.stderr.includes(SECRET_PATH),
            `stderr shows the secret: ${trusted.stderr}`,
          );
        });
      } finally {
        await remote.close();
      }
    },
  );

  it(
    "treats a project server named like a user server as another server: approval first, the user's allow rules do not start it",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-mcp-shadow-", async ({ workspace, cli, marker }) => {
        const userLog = path.join(workspace.root, "user-spawned.log");
        const projectLog = path.join(workspace.root, "project-spawned.log");
        const userFile = await workspace.writeConfig(
          "user",
          `permissions:\n  allow: ["mcp__beh__*"]\nmcp_servers:\n${stdioServerYaml("beh", userLog, marker)}\n`,
        );
        const projectFile = await workspace.writeConfig(
          "project",
          `mcp_servers:\n${stdioServerYaml("beh", projectLog, marker)}\n`,
        );
        const tools = parseJson<ToolsJson>(await cli(["tools", "--json"]));
        assert.equal(source(tools, "mcp:beh")?.state, "needs-approval");
        const shadowed = tools.diagnostics.find(
          (diagnostic) => diagnostic.code === "mcp_server_shadowed",
        );
        assert.ok(shadowed, JSON.stringify(tools.diagnostics));
        assert.ok(shadowed.message.includes(projectFile), shadowed.message);
        assert.ok(shadowed.message.includes(userFile), shadowed.message);

        const call = await cli(["call", "mcp__beh__echo", '{"text":"hi"}', "--json", "--yes"]);
        assert.notEqual(call.code, 0, call.stdout);
        assert.equal(await spawns(projectLog), 0, "the project's server never ran");

        // Once approved it is the workspace's server, and the user's rule reaches it.
        assert.equal((await cli(["trust", "approve", "mcp_server:beh"])).code, 0);
        const approved = await cli(["call", "mcp__beh__echo", '{"text":"hi"}', "--json"]);
        assert.equal(approved.code, 0, approved.stdout + approved.stderr);
        assert.equal(parseJson<CallJson>(approved).decision.decision, "allow");
        assert.equal(await spawns(projectLog), 1);
        assert.equal(await spawns(userLog), 0, "the project entry replaces the user's whole");
      });
    },
  );
});
