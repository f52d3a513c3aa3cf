import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseJson, runCli, TOOLS_PLUGIN, toolsThatRan, withWorkspace } from "./support/cli.js";

interface CallJson {
  ok: boolean;
  content: Array<{ type: string; text?: string }>;
  structured?: unknown;
  error?: { code: string; message: string };
  metadata: Record<string, unknown>;
  decision: { decision: string; reason: string; matched: Record<string, unknown> };
  approval?: string;
}

const call = (...args: string[]) => ["call", ...args, "--plugin", TOOLS_PLUGIN];

describe("pseudoclaude call", () => {
  it("runs an allowed tool and prints its ToolResult with the policy decision", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, call("echo", '{"text":"hi"}', "--json"));
      assert.equal(run.code, 0, run.stderr);
      const json = parseJson<CallJson>(run);
      assert.deepEqual(Object.keys(json), ["ok", "content", "metadata", "decision", "diagnostics"]);
      assert.equal(json.ok, true);
      assert.deepEqual(json.content, [{ type: "text", text: "echo: hi" }]);
      assert.equal(json.metadata.tool, "echo");
      assert.equal(json.metadata.source, "fixture");
      assert.deepEqual(json.decision, {
        decision: "allow",
        reason: '"echo" is read-only.',
        matched: { kind: "safety", safety: "read_only" },
      });
      assert.deepEqual(toolsThatRan(workspace), ["echo"]);
    });
  });

  it("prints text content on stdout in human mode", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, call("echo", '{"text":"hi"}'));
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "echo: hi\n");
    });
  });

  it("exits 1 with unknown_tool for a tool nobody provides", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, call("no_such_tool", "--json"));
      assert.equal(run.code, 1);
      const json = parseJson<CallJson>(run);
      assert.equal(json.ok, false);
      assert.equal(json.error?.code, "unknown_tool");
    });
  });

  it("answers invalid_arguments for arguments that are not JSON, without running the tool", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, call("echo", '{"text": ', "--json"));
      assert.equal(run.code, 1, run.stderr);
      const json = parseJson<CallJson>(run);
      assert.equal(json.error?.code, "invalid_arguments");
      assert.deepEqual(toolsThatRan(workspace), []);
    });
  });

  it("denies a side-effect tool when nobody can approve it (no --yes, no terminal)", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, call("write_note", '{"note":"x"}', "--json"));
      assert.equal(run.code, 1);
      const json = parseJson<CallJson>(run);
      assert.equal(json.error?.code, "denied");
      assert.match(json.error?.message ?? "", /--yes/);
      assert.equal(json.decision.decision, "ask");
      assert.equal(json.approval, "no_approver");
      assert.deepEqual(toolsThatRan(workspace), []);
    });
  });

  it("runs a side-effect tool when --yes approves it", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, call("write_note", '{"note":"x"}', "--yes", "--json"));
      assert.equal(run.code, 0, run.stderr);
      const json = parseJson<CallJson>(run);
      assert.equal(json.ok, true);
      assert.equal(json.decision.decision, "ask");
      assert.equal(json.approval, "approved");
      assert.deepEqual(toolsThatRan(workspace), ["write_note"]);
    });
  });

  it("denies a side-effect tool in plan mode even with --yes", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(
        workspace,
        call("write_note", "{}", "--mode", "plan", "--yes", "--json"),
      );
      assert.equal(run.code, 1);
      const json = parseJson<CallJson>(run);
      assert.equal(json.error?.code, "denied");
      assert.deepEqual(json.decision.matched, { kind: "mode", mode: "plan" });
      assert.equal(json.decision.decision, "deny");
      assert.equal(json.approval, undefined);
      assert.deepEqual(toolsThatRan(workspace), []);
    });
  });

  it("lets --mode override the mode set in the project config", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("project", "permissions:\n  mode: plan\n");
      const run = await runCli(workspace, call("write_note", "{}", "--mode", "bypass", "--json"));
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(parseJson<CallJson>(run).decision.matched, { kind: "mode", mode: "bypass" });
    });
  });

  it("denies a call that a deny rule in the project config matches", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("project", "permissions:\n  deny: [echo]\n");
      const run = await runCli(workspace, call("echo", '{"text":"hi"}', "--json"));
      assert.equal(run.code, 1);
      const json = parseJson<CallJson>(run);
      assert.equal(json.error?.code, "denied");
      assert.deepEqual(json.decision.matched, {
        kind: "rule",
        verdict: "deny",
        pattern: "echo",
        origin: "project",
      });
      assert.deepEqual(toolsThatRan(workspace), []);
    });
  });

  it("stops a tool at --timeout-ms and reports the timeout it applied", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, call("slow", "{}", "--timeout-ms", "100", "--json"));
      assert.equal(run.code, 1);
      const json = parseJson<CallJson>(run);
      assert.equal(json.error?.code, "timeout");
      assert.equal(json.metadata.timeout_ms, 100);
    });
  });

  it("prints a failing tool's error on stderr and exits 1", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, call("fail"));
      assert.equal(run.code, 1);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /^tool_error: the fixture tool failed on purpose$/m);
    });
  });
});
