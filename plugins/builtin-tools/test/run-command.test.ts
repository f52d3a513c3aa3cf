import assert from "node:assert/strict";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { show, textOf, withTools } from "./support/agent.js";
import { eventually, MARKER_VARIABLE, markedProcesses, newMarker } from "./support/processes.js";

/**
 * A command whose child ignores SIGTERM and starts a grandchild that ignores it too. Every
 * process of it carries the marker, so the test can see each one.
 */
const STUBBORN = `trap '' TERM
sh -c 'trap "" TERM; echo grandchild ready; sleep 60' &
echo child ready
sleep 60
`;

async function stubborn(workspace: TempWorkspace): Promise<void> {
  await workspace.write("stubborn.sh", STUBBORN);
}

/** `export MARKER=...; exec CMD`: the leader itself carries the marker too. */
function marked(marker: string, command: string): string {
  return `export ${MARKER_VARIABLE}=${marker}; exec ${command}`;
}

interface CommandStructured {
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  killed_with?: string;
  truncated: boolean;
  output_chars: number;
}

describe("run_command", () => {
  it("returns the output and exit code of a successful command", async () => {
    await withTools({}, async ({ call }) => {
      const result = await call("run_command", { command: "echo hello; echo oops >&2" });
      assert.equal(result.ok, true, show(result));
      assert.equal(textOf(result), "hello\noops\n[Exit code 0.]");
      assert.equal((result.structured as CommandStructured).exit_code, 0);
      assert.equal(result.metadata.exit_code, 0);
      assert.equal(result.metadata.signal, null);
    });
  });

  it("reports a non-zero exit as a tool_error with the output and the code", async () => {
    await withTools({}, async ({ call }) => {
      const result = await call("run_command", { command: "echo failing; exit 3" });
      assert.equal(result.ok, false);
      assert.equal(result.error?.code, "tool_error");
      assert.equal(result.error?.message, "Exit code 3.");
      assert.equal(textOf(result), "failing\n[Exit code 3.]");
      assert.equal(result.metadata.exit_code, 3);
    });
  });

  it("reports a command ended by a signal", async () => {
    await withTools({}, async ({ call }) => {
      const result = await call("run_command", { command: "kill -KILL $$" });
      assert.equal(result.error?.code, "tool_error");
      assert.equal(result.metadata.signal, "SIGKILL");
      assert.match(textOf(result), /ended by signal SIGKILL/);
    });
  });

  it("runs in cwd inside the workspace, with empty standard input", async () => {
    await withTools(
      { setup: (w) => w.write("sub/dir/f.txt", "").then(() => {}) },
      async ({ call, workspace }) => {
        const result = await call("run_command", {
          command: "pwd; cat; echo done",
          cwd: "sub/dir",
        });
        assert.equal(result.ok, true, show(result));
        const real = await realpath(path.join(workspace.root, "sub/dir"));
        assert.equal(textOf(result), `${real}\ndone\n[Exit code 0.]`);
        const missing = await call("run_command", { command: "true", cwd: "nope" });
        assert.equal(missing.error?.code, "tool_error");
        assert.match(textOf(missing), /nope does not exist/);
      },
    );
  });

  it("keeps the beginning and the end of an output flood, bounded", async () => {
    await withTools({ plugin: { maxOutputChars: 2_000 } }, async ({ call }) => {
      const result = await call("run_command", { command: "seq 1 300000" });
      assert.equal(result.ok, true, show(result));
      const text = textOf(result);
      assert.ok(text.length < 2_300, `bounded: ${text.length}`);
      assert.ok(text.startsWith("1\n2\n3\n"), text.slice(0, 20));
      assert.ok(text.endsWith("299999\n300000\n[Exit code 0.]"), text.slice(-40));
      assert.match(text, /\[\.\.\. \d+ characters omitted \(output cap 2000\) \.\.\.\]/);
      const structured = result.structured as CommandStructured;
      assert.equal(structured.truncated, true);
      assert.ok(structured.output_chars > 1_000_000);
    });
  });

  it("ends an endless flood at its timeout_ms with bounded output", async () => {
    await withTools({ plugin: { maxOutputChars: 1_000 } }, async ({ call }) => {
      const result = await call("run_command", { command: "yes flood", timeout_ms: 300 });
      assert.equal(result.error?.code, "timeout", show(result));
      assert.ok(textOf(result).length < 1_300);
      assert.match(textOf(result), /timed out after 300 ms \(its timeout_ms\)/);
      assert.equal((result.structured as CommandStructured).timed_out, true);
    });
  });

  it("kills the whole process group on the call's timeout, even children that ignore SIGTERM", async () => {
    const marker = newMarker();
    await withTools({ setup: stubborn }, async ({ call }) => {
      const running = call(
        "run_command",
        { command: marked(marker, "sh ./stubborn.sh") },
        { timeoutMs: 2_000 },
      );
      const started = await eventually(() => markedProcesses(marker).length >= 4, 15_000);
      const result = await running;
      assert.ok(started, "the command, its child and grandchild were all running");
      assert.equal(result.error?.code, "timeout", show(result));
      assert.ok(
        await eventually(() => markedProcesses(marker).length === 0, 5_000),
        `left behind: ${markedProcesses(marker).join(", ")}`,
      );
      // Normally the tool answers within the registry's grace, with the output and how it ended.
      if ((result.structured as CommandStructured | undefined)?.killed_with) {
        assert.match(textOf(result), /child ready/);
        assert.match(textOf(result), /ended with SIGKILL/);
      }
    });
  });

  it("kills the process group when the caller cancels", async () => {
    const marker = newMarker();
    await withTools({ setup: stubborn }, async ({ call }) => {
      const controller = new AbortController();
      const running = call(
        "run_command",
        { command: marked(marker, "sh ./stubborn.sh") },
        { signal: controller.signal },
      );
      assert.ok(await eventually(() => markedProcesses(marker).length >= 4, 15_000), "started");
      controller.abort();
      const result = await running;
      assert.equal(result.error?.code, "cancelled", show(result));
      assert.ok(
        await eventually(() => markedProcesses(marker).length === 0, 5_000),
        "nothing left",
      );
    });
  });

  it("ends background processes the command leaves behind", async () => {
    const marker = newMarker();
    await withTools({}, async ({ call }) => {
      const result = await call("run_command", {
        command: marked(marker, "sh -c 'sleep 60 & echo started'"),
      });
      assert.equal(result.ok, true, show(result));
      assert.match(
        textOf(result),
        /started\n\[Exit code 0; background processes it left were ended\.\]/,
      );
      assert.ok(
        await eventually(() => markedProcesses(marker).length === 0, 5_000),
        "nothing left",
      );
    });
  });

  it("ends running commands when the agent closes", async () => {
    const marker = newMarker();
    let pending: Promise<unknown> | undefined;
    await withTools({ setup: stubborn }, async ({ call }) => {
      pending = call("run_command", { command: marked(marker, "sh ./stubborn.sh") });
      assert.ok(await eventually(() => markedProcesses(marker).length >= 4, 15_000), "started");
    });
    const result = (await pending) as { error?: { code: string } };
    assert.equal(result.error?.code, "cancelled");
    assert.ok(await eventually(() => markedProcesses(marker).length === 0, 5_000), "nothing left");
  });

  it("takes its timeout from command_timeout_ms at the tool level of the precedence", async () => {
    await withTools({ plugin: { commandTimeoutMs: 400 } }, async ({ agent }) => {
      const { result } = await agent.callTool("run_command", { command: "sleep 30" });
      assert.equal(result.error?.code, "timeout", show(result));
      assert.equal(result.metadata.timeout_ms, 400);
      assert.equal(result.metadata.timeout_source, "tool");
    });
  });

  it("says so when the shell cannot start", async () => {
    await withTools({ plugin: { shell: "/nonexistent/shell" } }, async ({ call }) => {
      const result = await call("run_command", { command: "true" });
      assert.equal(result.error?.code, "tool_error");
      assert.match(textOf(result), /Could not start the command: .*ENOENT/);
    });
  });
});
