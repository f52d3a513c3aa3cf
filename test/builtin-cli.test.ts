// The built `pseudoclaude` CLI with its default built-in tools, on a temporary workspace with
// its own HOME: listing, one call, and scripted runs that edit a file and run a command
// through policy - approved with --yes, denied without it.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { parseJson, runCli } from "./support/cli.js";

const TIMEOUT = { timeout: 60_000 };

interface ResultJson {
  ok: boolean;
  content: Array<{ type: string; text?: string }>;
  error?: { code: string; message: string };
  structured?: Record<string, unknown>;
}

interface CallJson extends ResultJson {
  decision: { decision: string; matched?: Record<string, unknown> };
}

interface RunJson {
  text: string;
  stop_reason: string;
  tool_calls: Array<{ name: string; decision: string; result: ResultJson }>;
}

interface ToolsJson {
  tools: Array<{ name: string; source: string; safety: string; offered: boolean }>;
}

/** The CLI on the workspace (also as --workspace, so both ways of naming it agree). */
const cli = (workspace: TempWorkspace, args: readonly string[]) =>
  runCli(workspace, [...args, "--workspace", workspace.root]);
const json = parseJson;

const README = "# Demo\nThe answer is 41.\n";

const textOf = (result: ResultJson) => result.content.map((block) => block.text ?? "").join("\n");

async function withWorkspace(body: (workspace: TempWorkspace) => Promise<void>): Promise<void> {
  const workspace = await createTempWorkspace("pseudoclaude-builtin-cli-");
  try {
    await workspace.write("README.md", README);
    await body(workspace);
  } finally {
    await workspace.cleanup();
  }
}

/** A script that edits README.md, runs a command that shows it, then answers. */
async function editAndRunScript(workspace: TempWorkspace): Promise<string> {
  return workspace.write(
    "script.json",
    JSON.stringify([
      {
        tool_calls: [
          { name: "read_file", arguments: { path: "README.md" } },
          {
            name: "edit_file",
            arguments: { path: "README.md", old_string: "is 41", new_string: "is 42" },
          },
          { name: "run_command", arguments: { command: "grep -c 42 README.md; echo ran-ok" } },
        ],
      },
      { text: "Fixed the answer." },
    ]),
  );
}

describe("pseudoclaude with the built-in tools", () => {
  it("lists the seven built-in tools with their safety", TIMEOUT, async () => {
    await withWorkspace(async (workspace) => {
      const run = await cli(workspace, ["tools", "--json"]);
      assert.equal(run.code, 0, run.stderr);
      const builtin = json<ToolsJson>(run).tools.filter((tool) => tool.source === "builtin");
      assert.deepEqual(
        builtin.map((tool) => [tool.name, tool.safety, tool.offered]),
        [
          ["edit_file", "side_effect", true],
          ["glob", "read_only", true],
          ["grep", "read_only", true],
          ["list_dir", "read_only", true],
          ["read_file", "read_only", true],
          ["run_command", "side_effect", true],
          ["write_file", "side_effect", true],
        ],
      );
    });
  });

  it("offers only the read-only tools in plan mode", TIMEOUT, async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("project", "permissions:\n  mode: plan\n");
      const listing = json<ToolsJson>(await cli(workspace, ["tools", "--json"]));
      const offered = listing.tools.filter((tool) => tool.source === "builtin" && tool.offered);
      assert.deepEqual(
        offered.map((tool) => tool.name),
        ["glob", "grep", "list_dir", "read_file"],
      );
      const script = await editAndRunScript(workspace);
      const run = await cli(workspace, [
        "run",
        "Fix it",
        "--script",
        script,
        "--mode",
        "plan",
        "--yes",
        "--json",
      ]);
      const calls = json<RunJson>(run).tool_calls;
      assert.deepEqual(
        calls.map((call) => [call.name, call.decision]),
        [
          ["read_file", "allow"],
          ["edit_file", "deny"],
          ["run_command", "deny"],
        ],
      );
      assert.equal(await readFile(path.join(workspace.root, "README.md"), "utf8"), README);
    });
  });

  it("reads a file with pseudoclaude call", TIMEOUT, async () => {
    await withWorkspace(async (workspace) => {
      const plain = await cli(workspace, ["call", "read_file", '{"path":"README.md"}']);
      assert.equal(plain.code, 0, plain.stderr);
      assert.equal(plain.stdout, "     1\t# Demo\n     2\tThe answer is 41.\n");
      const refused = await cli(workspace, [
        "call",
        "read_file",
        '{"path":"../outside.txt"}',
        "--json",
      ]);
      assert.equal(refused.code, 1);
      assert.equal(json<CallJson>(refused).error?.code, "invalid_arguments");
    });
  });

  it("edits a file and runs a command through policy with --yes", TIMEOUT, async () => {
    await withWorkspace(async (workspace) => {
      const script = await editAndRunScript(workspace);
      const run = await cli(workspace, [
        "run",
        "Fix the answer",
        "--script",
        script,
        "--yes",
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const result = json<RunJson>(run);
      assert.equal(result.text, "Fixed the answer.");
      assert.deepEqual(
        result.tool_calls.map((call) => [call.name, call.decision, call.result.ok]),
        [
          ["read_file", "allow", true],
          ["edit_file", "ask", true],
          ["run_command", "ask", true],
        ],
      );
      assert.equal(
        await readFile(path.join(workspace.root, "README.md"), "utf8"),
        "# Demo\nThe answer is 42.\n",
      );
      const command = result.tool_calls[2]!.result;
      assert.equal(textOf(command), "1\nran-ok\n[Exit code 0.]");
      assert.equal(command.structured?.exit_code, 0);
    });
  });

  it(
    "denies the edit and the command without --yes and leaves the file unchanged",
    TIMEOUT,
    async () => {
      await withWorkspace(async (workspace) => {
        const script = await editAndRunScript(workspace);
        const run = await cli(workspace, ["run", "Fix the answer", "--script", script, "--json"]);
        const result = json<RunJson>(run);
        const denied = result.tool_calls.filter((call) => call.name !== "read_file");
        assert.deepEqual(
          denied.map((call) => [call.name, call.result.ok, call.result.error?.code]),
          [
            ["edit_file", false, "denied"],
            ["run_command", false, "denied"],
          ],
        );
        assert.equal(await readFile(path.join(workspace.root, "README.md"), "utf8"), README);
        for (const [tool, args] of [
          ["edit_file", { path: "README.md", old_string: "is 41", new_string: "is 42" }],
          ["run_command", { command: "touch ran" }],
        ] as const) {
          const call = await cli(workspace, ["call", tool, JSON.stringify(args), "--json"]);
          assert.equal(call.code, 1, `${tool}: ${call.stdout}`);
          assert.equal(json<CallJson>(call).error?.code, "denied");
        }
        assert.equal(await readFile(path.join(workspace.root, "README.md"), "utf8"), README);
        assert.equal(existsSync(path.join(workspace.root, "ran")), false);
      });
    },
  );

  it(
    "lets an approved project allow rule run npm test commands without --yes, but not a compound command",
    TIMEOUT,
    async () => {
      await withWorkspace(async (workspace) => {
        await workspace.write(
          "package.json",
          JSON.stringify({ name: "demo", private: true, scripts: { test: "echo tests-pass" } }),
        );
        await workspace.write("keep/me.txt", "precious\n");
        await workspace.writeConfig(
          "project",
          'permissions:\n  allow: ["run_command(npm test*)"]\n',
        );
        // The repository's allow rule pre-approves nothing until the user approves it.
        const unapproved = await cli(workspace, [
          "call",
          "run_command",
          '{"command":"npm test --silent"}',
          "--json",
        ]);
        assert.equal(unapproved.code, 1, unapproved.stdout + unapproved.stderr);
        assert.equal(json<CallJson>(unapproved).decision.decision, "ask");
        const approve = await cli(workspace, ["trust", "approve", "setting:permissions"]);
        assert.equal(approve.code, 0, approve.stderr);
        const allowed = await cli(workspace, [
          "call",
          "run_command",
          '{"command":"npm test --silent"}',
          "--json",
        ]);
        assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
        const ran = json<CallJson>(allowed);
        assert.deepEqual(ran.decision.matched, {
          kind: "rule",
          verdict: "allow",
          pattern: "run_command(npm test*)",
          origin: "project",
        });
        assert.match(textOf(ran), /tests-pass/);
        const compound = await cli(workspace, [
          "call",
          "run_command",
          '{"command":"npm test && rm -rf keep"}',
          "--json",
        ]);
        assert.equal(compound.code, 1);
        const refused = json<CallJson>(compound);
        assert.equal(refused.decision.decision, "ask");
        assert.equal(refused.error?.code, "denied");
        assert.equal(existsSync(path.join(workspace.root, "keep/me.txt")), true);
      });
    },
  );
});
