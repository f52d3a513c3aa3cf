import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import type { TempWorkspace } from "@pseudoclaude/testing";
import {
  fixture,
  parseJson,
  runCli,
  startCli,
  TOOLS_PLUGIN,
  toolsThatRan,
  waitFor,
  withWorkspace,
} from "./support/cli.js";

interface RunJson {
  text: string;
  turns: number;
  stop_reason: string;
  tool_calls: Array<{
    id: string;
    name: string;
    arguments: unknown;
    decision: string;
    reason: string;
    approval?: string;
    result: { ok: boolean; content: Array<{ text?: string }>; error?: { code: string } };
  }>;
  usage: Record<string, number>;
  diagnostics: unknown[];
  error?: { code: string; message: string };
}

async function script(workspace: TempWorkspace, turns: unknown[]): Promise<string> {
  return workspace.write("script.json", JSON.stringify(turns));
}

const run = (...args: string[]) => ["run", ...args, "--plugin", TOOLS_PLUGIN];

describe("pseudoclaude run", () => {
  it("drives a scripted tool call through the loop and reports it in JSON", async () => {
    await withWorkspace(async (workspace) => {
      await script(workspace, [
        { tool_calls: [{ name: "echo", arguments: { text: "hello" } }] },
        { text: "The tool said hello." },
      ]);
      const result = await runCli(
        workspace,
        run("say hello", "--provider", "scripted", "--script", "script.json", "--json"),
      );
      assert.equal(result.code, 0, result.stderr);
      const json = parseJson<RunJson>(result);
      assert.deepEqual(Object.keys(json), [
        "text",
        "turns",
        "stop_reason",
        "tool_calls",
        "usage",
        "diagnostics",
        // Added with sessions: every earlier key keeps its place.
        "session_id",
      ]);
      assert.equal(json.text, "The tool said hello.");
      assert.equal(json.turns, 2);
      assert.equal(json.stop_reason, "end_turn");
      assert.equal(json.tool_calls.length, 1);
      const [first] = json.tool_calls;
      assert.equal(first?.name, "echo");
      assert.deepEqual(first?.arguments, { text: "hello" });
      assert.equal(first?.decision, "allow");
      assert.equal(first?.result.ok, true);
      assert.equal(first?.result.content[0]?.text, "echo: hello");
      assert.deepEqual(json.diagnostics, []);
      assert.deepEqual(toolsThatRan(workspace), ["echo"]);
    });
  });

  it("denies a side-effect call without --yes and runs it with --yes", async () => {
    await withWorkspace(async (workspace) => {
      await script(workspace, [
        { tool_calls: [{ name: "write_note", arguments: { note: "n" } }] },
        { text: "Done." },
      ]);
      const denied = parseJson<RunJson>(
        await runCli(workspace, run("note", "--script", "script.json", "--json")),
      );
      assert.equal(denied.tool_calls[0]?.decision, "ask");
      assert.equal(denied.tool_calls[0]?.approval, "no_approver");
      assert.equal(denied.tool_calls[0]?.result.error?.code, "denied");
      assert.deepEqual(toolsThatRan(workspace), []);

      const approved = await runCli(
        workspace,
        run("note", "--script", "script.json", "--yes", "--json"),
      );
      assert.equal(approved.code, 0, approved.stderr);
      const json = parseJson<RunJson>(approved);
      assert.equal(json.tool_calls[0]?.approval, "approved");
      assert.equal(json.tool_calls[0]?.result.ok, true);
      assert.deepEqual(toolsThatRan(workspace), ["write_note"]);
    });
  });

  it("streams the text to stdout and tool lines to stderr in human mode", async () => {
    await withWorkspace(async (workspace) => {
      await script(workspace, [
        { text: "Checking.", tool_calls: [{ name: "echo", arguments: { text: "hi" } }] },
        { text: "All good." },
      ]);
      const result = await runCli(workspace, run("go", "--script", "script.json"));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "Checking.\nAll good.\n");
      assert.match(result.stderr, /^> echo \{"text":"hi"\}$/m);
      assert.match(result.stderr, /^ {2}allow: "echo" is read-only\.$/m);
      assert.match(result.stderr, /^ {2}echo -> ok: echo: hi$/m);
    });
  });

  it("exits 1 with an error object when the provider fails", async () => {
    await withWorkspace(async (workspace) => {
      await script(workspace, [
        { tool_calls: [{ name: "echo", arguments: { text: "a" } }] },
        { error: "model exploded" },
      ]);
      const result = await runCli(workspace, run("go", "--script", "script.json", "--json"));
      assert.equal(result.code, 1);
      const json = parseJson<RunJson>(result);
      assert.deepEqual(json.error, { code: "scripted_error", message: "model exploded" });
      assert.equal(json.stop_reason, "error");
      assert.equal(json.turns, 2);
      assert.equal(json.tool_calls[0]?.name, "echo");
      assert.match(result.stderr, /model exploded/);
    });
  });

  it("ends with scripted_expectation_failed when a turn's expectation is not met", async () => {
    await withWorkspace(async (workspace) => {
      await script(workspace, [
        {
          expect: { tools: ["echo"], system_includes: [""] },
          tool_calls: [{ name: "echo", arguments: { text: "a" } }],
        },
        { expect: { tools: ["no_such_tool"] }, text: "never said" },
      ]);
      const result = await runCli(workspace, run("go", "--script", "script.json", "--json"));
      assert.equal(result.code, 1);
      const json = parseJson<RunJson>(result);
      assert.equal(json.error?.code, "scripted_expectation_failed");
      assert.match(
        json.error?.message ?? "",
        /turn 2 expected the tools no_such_tool to be offered; offered were .*echo/,
      );
      assert.equal(json.tool_calls[0]?.name, "echo", "the first turn's expectation held");
      assert.equal(json.text, "");
    });
  });

  it("exits 1 when the run stops at --max-turns without a final answer", async () => {
    await withWorkspace(async (workspace) => {
      await script(workspace, [
        { tool_calls: [{ name: "echo", arguments: { text: "a" } }] },
        { text: "too late" },
      ]);
      const result = await runCli(
        workspace,
        run("go", "--script", "script.json", "--max-turns", "1", "--json"),
      );
      assert.equal(result.code, 1);
      const json = parseJson<RunJson>(result);
      assert.equal(json.stop_reason, "max_turns");
      assert.equal(json.turns, 1);
    });
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`aborts on ${signal}, closes the agent and its child processes, and exits 130`, async () => {
      await withWorkspace(async (workspace) => {
        await script(workspace, [{ tool_calls: [{ name: "slow", arguments: {} }] }, { text: "x" }]);
        const cli = startCli(workspace, [
          ...run("go", "--script", "script.json", "--json"),
          "--plugin",
          fixture("child-process-plugin.mjs"),
        ]);
        let childPid: number | undefined;
        try {
          await waitFor(() => toolsThatRan(workspace).includes("slow"), "the slow tool to start");
          childPid = Number(readFileSync(path.join(workspace.root, "child.pid"), "utf8"));
          assert.ok(isAlive(childPid), "the source's child process runs during the session");
          cli.child.kill(signal);
          const result = await cli.done;
          assert.equal(result.code, 130, result.stderr);
          const json = parseJson<RunJson>(result);
          assert.equal(json.stop_reason, "aborted");
          assert.equal(json.tool_calls[0]?.result.error?.code, "cancelled");
          const pid = childPid;
          await waitFor(() => !isAlive(pid), "the child process to end", 5_000);
        } finally {
          // Whatever failed above, leave nothing running.
          cli.child.kill("SIGKILL");
          if (childPid !== undefined && isAlive(childPid)) process.kill(childPid, "SIGKILL");
        }
      });
    });
  }
});

/** Alive and not a zombie (an exited child not yet reaped still has a process entry). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}
