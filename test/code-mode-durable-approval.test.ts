// A code-mode program's side-effect call in a durable run, in default mode, on the real Restate
// server from npm (loopback, started and stopped here): the inner call's approval waits in the
// journal without a worker's person at hand, is answered from outside with `pseudoclaude
// approve`, and the program goes on from there. Allowed, the call runs once; denied, the
// program's call throws `ToolError` `denied`, which the program catches and reports.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { DurableClient, type PendingApproval } from "@pseudoclaude/durable-restate/client";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { markerEnv, newMarker } from "@pseudoclaude/testing/system";
import { type RunningCli, runCli, startCli } from "./support/cli.js";
import { assertNothingLeft, ledgerConfig, programScript } from "./support/code-mode-durable.js";
import { type DurableCli, type Serve, startDurableCli, waitFor } from "./support/durable-cli.js";
import { ledgerOf } from "./support/durable-restate.js";
import type { RestateServer } from "./support/restate-server.js";

const TIMEOUT = { timeout: 120_000 };

let cli: DurableCli;
let server: RestateServer;
let workspace: TempWorkspace;
let client: DurableClient;
before(async () => {
  cli = await startDurableCli();
  ({ server, workspace } = cli);
  client = new DurableClient({ ingress: server.ingress, admin: server.admin });
});
after(async () => {
  await cli?.stop();
});

/**
 * A code-mode worker in default mode (no --yes: each side effect is asked), whose model runs
 * `code` as call `p1`, then says `text`; marked so its processes are found.
 */
async function askingWorker(name: string, code: string, text: string, marker: string) {
  const script = await programScript(workspace, name, code, text);
  const args = ["--script", script, "--code-mode", "on", "--mode", "default"];
  return cli.serve([...args, "--register", "--admin", server.admin], markerEnv(marker));
}

/** `run --durable` in `session`, not in a terminal: it prints each waiting approval's line. */
function durableRun(session: string): RunningCli {
  return startCli(workspace, ["run", "go", ...cli.durable(), "--session", session], {
    timeoutMs: 90_000,
  });
}

/**
 * The approval the run waits for, as its two listings show it: the line `run` prints (its ID
 * read from there, as a person would) and the session's `pending` handler.
 */
async function waitingApproval(
  running: RunningCli,
  session: string,
  tool: string,
): Promise<{ line: string; id: string; pending: PendingApproval[] }> {
  const match = await waitFor("the waiting line", async () =>
    running
      .stderr()
      .match(
        new RegExp(`waiting for approval of ${tool} .*: pseudoclaude approve (\\S+) allow\\|deny`),
      ),
  );
  return { line: match[0], id: match[1]!, pending: await client.pending(session) };
}

async function answer(id: string, verdict: "allow" | "deny"): Promise<void> {
  const answered = await runCli(workspace, ["approve", id, verdict, "--ingress", server.ingress]);
  assert.equal(answered.code, 0, answered.stderr);
}

/** The program's result and its inner calls (`id parentId`) as the run's event stream has them. */
async function programOf(session: string) {
  const page = await client.events(session, 0);
  const ends = page.events.flatMap((event) => (event.type === "tool-call-end" ? [event.data] : []));
  const program = ends.find((end) => end.call.id === "p1");
  assert.ok(program, `no end of p1 in session ${session}`);
  return {
    result: program.result,
    calls: ends.map((end) => `${end.call.id} ${end.call.parentId ?? "-"}`),
  };
}

/** Stops the worker; nothing carrying the marker (it, its MCP server) runs any more. */
async function stopAll(worker: Serve, marker: string): Promise<void> {
  await worker.stop();
  await assertNothingLeft(marker, "after the worker stopped");
}

describe("a code-mode program's approvals in a durable run (the real Restate server)", () => {
  it(
    "the inner call's approval waits in the journal under its own step; allowed from outside, it runs once and the program finishes",
    TIMEOUT,
    async () => {
      const marker = newMarker();
      const log = path.join(workspace.root, "allow.log");
      await ledgerConfig(workspace, log, marker);
      const code = `const sent = await tools.ledger.send({ id: "approved" });
return { sent };`;
      const worker = await askingWorker("allow.json", code, "Sent.", marker);
      try {
        const running = durableRun("allow");
        const { line, id, pending } = await waitingApproval(running, "allow", "mcp__ledger__send");
        // The line names the tool and its arguments, printed under the program's call it is
        // part of; the call's id (p1.0) is only in the pending listing's journal step.
        assert.match(
          running.stderr(),
          /> code_mode\n[\s\S]*\n {4}> mcp__ledger__send \{"id":"approved"\}\n {2}waiting for approval/,
        );
        assert.equal(
          line,
          `waiting for approval of mcp__ledger__send {"id":"approved"} (a call of the program p1): pseudoclaude approve ${id} allow|deny`,
        );
        assert.deepEqual(pending, [
          {
            id,
            step: "turn-1:p1.0:approval",
            tool: "mcp__ledger__send",
            arguments: { id: "approved" },
            reason: '"mcp__ledger__send" may have side effects and no rule allows it.',
            interrupted: false,
            callId: "p1.0",
            parentCallId: "p1",
          },
        ]);
        assert.deepEqual(await ledgerOf(log), [], "nothing sent before the answer");

        await answer(id, "allow");
        const done = await running.done;
        assert.equal(done.code, 0, done.stderr + worker.output());
        assert.equal(done.stdout, "Sent.\n");
        assert.deepEqual(await client.pending("allow"), [], "nothing waits any more");
        assert.deepEqual(
          await ledgerOf(log),
          ["start send approved", "done send approved"],
          "the side effect ran once",
        );
        const program = await programOf("allow");
        assert.ok(program.result.ok, JSON.stringify(program.result));
        assert.deepEqual(program.result.structured, { sent: "send approved ok" });
        assert.deepEqual(program.calls, ["p1.0 p1", "p1 -"]);
      } finally {
        await stopAll(worker, marker);
      }
    },
  );

  it(
    "denied from outside, the program's call throws ToolError denied, the program catches it and says so, nothing is written",
    TIMEOUT,
    async () => {
      const marker = newMarker();
      const code = `try {
  await tools.write_file({ path: "out/denied.txt", content: "should not be" });
  return "written";
} catch (error) {
  return { caught: error instanceof ToolError, code: error.code, tool: error.tool };
}`;
      const worker = await askingWorker("deny.json", code, "Refused.", marker);
      try {
        const running = durableRun("deny");
        const { line, id, pending } = await waitingApproval(running, "deny", "write_file");
        assert.equal(
          line,
          `waiting for approval of write_file {"path":"out/denied.txt","content":"should not be"} (a call of the program p1): pseudoclaude approve ${id} allow|deny`,
        );
        assert.equal(pending.length, 1, JSON.stringify(pending));
        assert.equal(pending[0]!.step, "turn-1:p1.0:approval");
        assert.equal(pending[0]!.tool, "write_file");

        await answer(id, "deny");
        const done = await running.done;
        assert.equal(done.code, 0, done.stderr + worker.output());
        assert.equal(done.stdout, "Refused.\n");
        await assert.rejects(
          readFile(path.join(workspace.root, "out/denied.txt")),
          { code: "ENOENT" },
          "nothing written",
        );
        const program = await programOf("deny");
        assert.ok(program.result.ok, JSON.stringify(program.result));
        assert.deepEqual(program.result.structured, {
          caught: true,
          code: "denied",
          tool: "write_file",
        });
        assert.deepEqual(program.calls, ["p1.0 p1", "p1 -"]);
      } finally {
        await stopAll(worker, marker);
      }
    },
  );
});
