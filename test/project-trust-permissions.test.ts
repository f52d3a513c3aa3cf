// A workspace's permissions and extra roots: allow rules, a looser mode and roots outside the
// workspace wait for approval; deny and ask rules and a stricter mode apply at once; a config the
// CLI cannot read (a misspelt key, broken YAML) stops everything rather than being half applied.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { parseJson } from "./support/cli.js";
import {
  type CallJson,
  commandScript,
  type Diagnostic,
  type RunJson,
  states,
  TIMEOUT,
  type ToolsJson,
  textOf,
  withScene,
} from "./support/project-trust-scene.js";

describe("what a workspace's files may widen only with the user's consent", () => {
  it(
    "runs a command a project allow rule or bypass mode pre-approves only after trust approve setting:permissions",
    TIMEOUT,
    async () => {
      const marker = (workspace: TempWorkspace) => path.join(workspace.root, "marker");
      for (const permissions of ['  allow: ["run_command"]', "  mode: bypass"]) {
        await withScene("pc-trust-permissions-", async ({ workspace, cli, trust }) => {
          await workspace.writeConfig("project", `permissions:\n${permissions}\n`);
          const script = await commandScript(workspace, "touch marker");
          const before = await cli(["run", "go", "--script", script, "--json"]);
          assert.equal(before.code, 0, before.stderr);
          const refused = parseJson<RunJson>(before).tool_calls[0];
          assert.equal(refused?.decision, "ask", `${permissions}: still asks`);
          assert.equal(refused?.result.error?.code, "denied", "no terminal to ask: denied");
          assert.equal(existsSync(marker(workspace)), false, `${permissions}: did not run`);
          assert.equal(states(await trust())["setting:permissions"], "needs-approval");

          const approve = await cli(["trust", "approve", "setting:permissions"]);
          assert.equal(approve.code, 0, approve.stderr);
          const after = await cli(["run", "go", "--script", script, "--json"]);
          assert.equal(after.code, 0, after.stderr);
          assert.equal(parseJson<RunJson>(after).tool_calls[0]?.decision, "allow");
          assert.equal(existsSync(marker(workspace)), true, `${permissions}: approved, it ran`);
        });
      }
      // The user's own allow rule needs no approval.
      await withScene("pc-trust-permissions-user-", async ({ workspace, cli, trust }) => {
        await workspace.writeConfig("user", 'permissions:\n  allow: ["run_command"]\n');
        const script = await commandScript(workspace, "touch marker");
        const run = await cli(["run", "go", "--script", script, "--json"]);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(parseJson<RunJson>(run).tool_calls[0]?.decision, "allow");
        assert.equal(existsSync(marker(workspace)), true);
        assert.deepEqual((await trust()).requests, []);
      });
    },
  );

  it(
    "applies a project's deny and ask rules and a stricter mode without any approval",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-narrow-rules-", async ({ workspace, cli, trust }) => {
        await workspace.writeConfig("user", 'permissions:\n  allow: ["run_command"]\n');
        // The user's rule lets commands through before the workspace narrows it.
        const echo = '{"command":"echo narrowing-test"}';
        const allowed = await cli(["call", "run_command", echo, "--json"]);
        assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
        assert.match(textOf(parseJson<CallJson>(allowed)), /narrowing-test/);

        await workspace.writeConfig(
          "project",
          'permissions:\n  deny: ["run_command(touch *)"]\n  ask: ["run_command(echo *)"]\n',
        );
        const script = await commandScript(workspace, "touch marker");
        const run = await cli(["run", "go", "--script", script, "--json", "--yes"]);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(parseJson<RunJson>(run).tool_calls[0]?.decision, "deny");
        assert.equal(existsSync(path.join(workspace.root, "marker")), false, "the deny stands");
        const asked = await cli(["call", "run_command", echo, "--json"]);
        assert.equal(asked.code, 1, asked.stdout + asked.stderr);
        assert.equal(parseJson<CallJson>(asked).decision.decision, "ask");
        assert.equal(parseJson<CallJson>(asked).error?.code, "denied");
        assert.deepEqual((await trust()).requests, [], "narrowing asks for nothing");
      });

      await withScene("pc-trust-narrow-mode-", async ({ workspace, cli, trust }) => {
        await workspace.writeConfig("user", "permissions:\n  mode: default\n");
        const before = await cli([
          "call",
          "write_file",
          '{"path":"before.txt","content":"x\\n"}',
          "--json",
          "--yes",
        ]);
        assert.equal(before.code, 0, before.stdout + before.stderr);
        assert.ok(existsSync(path.join(workspace.root, "before.txt")), "the user's mode writes");

        await workspace.writeConfig("project", "permissions:\n  mode: plan\n");
        const planned = await cli([
          "call",
          "write_file",
          '{"path":"planned.txt","content":"x\\n"}',
          "--json",
          "--yes",
        ]);
        assert.equal(planned.code, 1, planned.stdout + planned.stderr);
        assert.equal(parseJson<CallJson>(planned).decision.decision, "deny");
        assert.equal(existsSync(path.join(workspace.root, "planned.txt")), false);
        assert.deepEqual((await trust()).requests, []);
      });
    },
  );

  it(
    "lets a project's extra_roots reach nothing outside the workspace until approved; the user's reach it",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-roots-", async ({ workspace, cli, trust }) => {
        const outside = path.join(path.dirname(workspace.root), "outside");
        const secret = `outside-secret-${randomUUID()}`;
        await mkdir(outside, { recursive: true });
        await writeFile(path.join(outside, "secret.txt"), `${secret}\n`);
        const read = () =>
          cli([
            "call",
            "read_file",
            JSON.stringify({ path: path.join(outside, "secret.txt") }),
            "--json",
            "--yes",
          ]);
        const roots = `builtin_tools:\n  extra_roots: [${JSON.stringify(outside)}]\n`;

        await workspace.writeConfig("project", roots);
        const refused = await read();
        assert.notEqual(refused.code, 0, refused.stdout);
        assert.equal(parseJson<CallJson>(refused).ok, false);
        assert.ok(!refused.stdout.includes(secret), "the content never appears");
        assert.ok(!refused.stderr.includes(secret));
        assert.equal(states(await trust())["setting:builtin_tools"], "needs-approval");

        const approve = await cli(["trust", "approve", "setting:builtin_tools"]);
        assert.equal(approve.code, 0, approve.stderr);
        const approved = await read();
        assert.equal(approved.code, 0, approved.stdout + approved.stderr);
        assert.match(textOf(parseJson<CallJson>(approved)), new RegExp(secret));

        // The same root in the user's own config needs no approval.
        assert.equal((await cli(["trust", "revoke"])).code, 0);
        await rm(path.join(workspace.root, ".PseudoClaude"), { recursive: true });
        await workspace.writeConfig("user", roots);
        const own = await read();
        assert.equal(own.code, 0, own.stdout + own.stderr);
        assert.match(textOf(parseJson<CallJson>(own)), new RegExp(secret));
        assert.deepEqual((await trust()).requests, []);
      });
    },
  );

  it(
    "fails closed on a misspelt permissions key: exit 2 with file, line and suggestion, nothing runs",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-misspelt-", async ({ workspace, cli }) => {
        await workspace.write("victim.txt", "still here\n");
        const file = await workspace.writeConfig(
          "project",
          'permissions:\n  alow: [run_command]\n  deny: ["run_command(rm *)"]\n',
        );
        const call = await cli(["call", "run_command", '{"command":"rm -f victim.txt"}', "--yes"]);
        assert.equal(call.code, 2, call.stdout + call.stderr);
        assert.ok(call.stderr.includes(`${file}:2:`), call.stderr);
        assert.ok(call.stderr.includes("did you mean `allow`?"), call.stderr);
        assert.ok(existsSync(path.join(workspace.root, "victim.txt")), "nothing ran");

        const script = await commandScript(workspace, "touch marker");
        const run = await cli(["run", "go", "--script", script, "--yes"]);
        assert.equal(run.code, 2, run.stdout + run.stderr);
        assert.ok(run.stderr.includes("config.yaml:2:"), run.stderr);
        assert.equal(existsSync(path.join(workspace.root, "marker")), false);

        const config = await cli(["config", "--json"]);
        assert.equal(config.code, 2, config.stderr);
        const unknown = parseJson<{ diagnostics: Diagnostic[] }>(config).diagnostics.find(
          (diagnostic) => diagnostic.code === "config_unknown_key",
        );
        assert.equal(unknown?.severity, "error");
        assert.equal(unknown?.line, 2);
        assert.equal(unknown?.file, file);
        assert.match(unknown?.message ?? "", /did you mean `allow`\?/);

        // tools goes on in diagnose mode and lists the error.
        const tools = await cli(["tools", "--json"]);
        assert.equal(tools.code, 0, tools.stderr);
        const listed = parseJson<ToolsJson>(tools).diagnostics;
        assert.ok(
          listed.some(
            (diagnostic) => diagnostic.code === "config_unknown_key" && diagnostic.line === 2,
          ),
          JSON.stringify(listed),
        );
      });

      await withScene("pc-trust-broken-yaml-", async ({ workspace, cli }) => {
        const file = await workspace.writeConfig(
          "project",
          'permissions:\n  deny: ["run_command(touch *)"\n  mode: [plan\n',
        );
        const script = await commandScript(workspace, "touch marker");
        const run = await cli(["run", "go", "--script", script, "--yes"]);
        assert.equal(run.code, 2, run.stdout + run.stderr);
        assert.ok(run.stderr.includes(file), run.stderr);
        assert.equal(existsSync(path.join(workspace.root, "marker")), false);
      });
    },
  );
});
