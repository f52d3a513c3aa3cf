// A Claude Code hook that fails without blocking (exit 1) is never silent, whatever the CLI's
// output mode: text mode prints the error line on stderr, and `run`, `call` and `chat` with
// `--json` carry the `hook_failed` diagnostic with the event, the command, the exit code and
// the first line of the hook's stderr. The real CLI, the hook from `~/.claude/settings.json`.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { parseJson, runCli } from "./support/cli.js";

const HOOK = "echo 'lint is broken' >&2; echo 'second line' >&2; exit 1";

interface Said {
  code: string;
  severity: string;
  details?: Record<string, unknown>;
}

/** The diagnostic every JSON mode must carry for the hook. */
function expectHookFailed(diagnostics: readonly Said[] | undefined, where: string): void {
  const failed = (diagnostics ?? []).filter((diagnostic) => diagnostic.code === "hook_failed");
  assert.equal(failed.length, 1, `${where}: ${JSON.stringify(diagnostics)}`);
  assert.equal(failed[0]?.severity, "error");
  assert.deepEqual(failed[0]?.details, {
    event: "PreToolUse",
    command: HOOK,
    blocked: false,
    exit_code: 1,
    stderr: "lint is broken",
  });
}

describe("a failed non-blocking hook in every output mode", () => {
  let workspace: TempWorkspace;

  before(async () => {
    workspace = await createTempWorkspace("pc-hook-output-");
    await mkdir(path.join(workspace.home, ".claude"), { recursive: true });
    await writeFile(
      path.join(workspace.home, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: HOOK }] }] },
      }),
    );
    await workspace.write(
      "script.json",
      JSON.stringify([
        { tool_calls: [{ id: "c1", name: "run_command", arguments: { command: "echo ran" } }] },
        { text: "done" },
      ]),
    );
  });

  after(() => workspace.cleanup());

  it("text mode: the error line on stderr, and the call still runs", async () => {
    const run = await runCli(workspace, ["call", "run_command", '{"command":"echo ran"}', "--yes"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ran$/m);
    assert.match(run.stderr, /PreToolUse hook .* failed: it exited with 1: lint is broken/);
  });

  it("call --json: the diagnostic in the JSON", async () => {
    const run = await runCli(workspace, [
      "call",
      "run_command",
      '{"command":"echo ran"}',
      "--yes",
      "--json",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const outcome = parseJson<{ ok: boolean; diagnostics?: Said[] }>(run);
    assert.equal(outcome.ok, true);
    expectHookFailed(outcome.diagnostics, "call --json");
  });

  it("run --json: the diagnostic in the JSON", async () => {
    const run = await runCli(workspace, [
      "run",
      "--script",
      "script.json",
      "--yes",
      "--json",
      "go",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = parseJson<{ text: string; diagnostics?: Said[] }>(run);
    assert.equal(result.text, "done");
    expectHookFailed(result.diagnostics, "run --json");
  });

  it("chat --json: a diagnostic event", async () => {
    const run = await runCli(workspace, ["chat", "--script", "script.json", "--yes", "--json"], {
      input: "go\n/exit\n",
    });
    assert.equal(run.code, 0, run.stderr);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; diagnostic?: Said });
    expectHookFailed(
      events.flatMap((event) =>
        event.type === "diagnostic" && event.diagnostic ? [event.diagnostic] : [],
      ),
      "chat --json",
    );
  });
});
