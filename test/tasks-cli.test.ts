// The CLI with a tool its MCP server runs as a task (plugins/mcp/test/fixtures/tasks.ts over stdio):
// `run` shows the task's statuses as they come, `tools --json` says which tools run as tasks,
// `tasks` lists a session's tasks (text and JSON), and an unknown session is exit 1.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN, parseJson, runCli } from "./support/cli.js";
import { approvedProjectServer } from "./support/project-server.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const TASKS = fileURLToPath(import.meta.resolve("#mcp-fixtures/tasks.js"));
const TIMEOUT = { timeout: 90_000 };

interface TasksJson {
  session: string;
  tasks: Array<{
    task_id: string;
    tool: string;
    call_id: string;
    status: string;
    status_message: string | null;
    started: string;
    updated: string;
    running: boolean;
  }>;
}

/** The project's `jobs` server (the tasks fixture), approved as its user would. */
function withTasksServer(workspace: TempWorkspace, log?: string): Promise<void> {
  return approvedProjectServer(workspace, "jobs", TASKS, {
    callTimeoutMs: 1000,
    ...(log ? { env: { FIXTURE_LOG: log } } : {}),
  });
}

const BUILD_SCRIPT = [
  { tool_calls: [{ id: "b1", name: "mcp__jobs__build", arguments: { steps: 3, step_ms: 500 } }] },
  { text: "The build is done." },
];

describe("pseudoclaude and MCP tasks", () => {
  it(
    "run shows a task's statuses, tasks lists it; tools --json marks task tools",
    TIMEOUT,
    async () => {
      const workspace = await createTempWorkspace("pc-tasks-cli-");
      try {
        await withTasksServer(workspace);

        const tools = await runCli(workspace, ["tools", "--json"]);
        assert.equal(tools.code, 0, tools.stderr);
        const listed = parseJson<{
          tools: Array<{ name: string; meta?: Record<string, unknown> }>;
        }>(tools).tools;
        const support = (name: string) =>
          listed.find((tool) => tool.name === name)?.meta?.task_support;
        assert.equal(support("mcp__jobs__build"), "required");
        assert.equal(support("mcp__jobs__quick"), "optional");
        assert.equal(support("mcp__jobs__echo"), undefined);

        const none = await runCli(workspace, ["tasks"]);
        assert.equal(none.code, 1);
        assert.match(none.stderr, /No sessions in .* yet\./);

        await workspace.write("script.json", JSON.stringify(BUILD_SCRIPT));
        const run = await runCli(workspace, [
          "run",
          "build it",
          "--script",
          "script.json",
          "--yes",
        ]);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stdout.trim(), "The build is done.");
        assert.match(run.stderr, /\.\.\. task [0-9a-f]{12} working: step 1 of 3/);
        assert.match(run.stderr, /\.\.\. task [0-9a-f]{12} completed/);
        assert.match(run.stderr, /mcp__jobs__build -> ok: built in 3 steps/);

        const listing = await runCli(workspace, ["tasks", "--json"]);
        assert.equal(listing.code, 0, listing.stderr);
        const { session, tasks } = parseJson<TasksJson>(listing);
        assert.match(session, /^[0-9a-f-]{36}$/);
        assert.equal(tasks.length, 1);
        const [task] = tasks;
        assert.equal(task!.tool, "mcp__jobs__build");
        assert.equal(task!.call_id, "b1");
        assert.equal(task!.status, "completed");
        assert.equal(task!.running, false);
        assert.match(task!.task_id, /^[0-9a-f]{32}$/);
        assert.ok(task!.started <= task!.updated);

        const text = await runCli(workspace, ["tasks", session]);
        assert.equal(text.code, 0, text.stderr);
        assert.match(text.stdout, new RegExp(`^${task!.task_id}  completed  mcp__jobs__build  `));

        const unknown = await runCli(workspace, ["tasks", "no-such-session"]);
        assert.equal(unknown.code, 1);
        assert.match(unknown.stderr, /No session "no-such-session" in this workspace/);
      } finally {
        await workspace.cleanup();
      }
    },
  );

  it(
    "chat shows a running task with its status, and Ctrl-C cancels a task on the server, in a real terminal",
    TIMEOUT,
    async () => {
      const workspace = await createTempWorkspace("pc-tasks-chat-");
      const log = path.join(workspace.root, "server.log");
      try {
        await withTasksServer(workspace, log);
        await workspace.write(
          "script.json",
          JSON.stringify([
            ...BUILD_SCRIPT,
            { tool_calls: [{ id: "f1", name: "mcp__jobs__forever", arguments: {} }] },
          ]),
        );
        const command = [process.execPath, CLI_BIN, "chat", "--script", "script.json", "--yes"]
          .map(shellQuote)
          .join(" ");
        const pane = new TmuxPane(
          command,
          { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
          workspace.root,
        );
        try {
          await pane.waitFor(/Type a message, or \/help/, "the chat");
          await pane.waitFor(/mcp:jobs is ready/, "the tasks server");
          pane.type("build it");
          pane.press("Enter");
          await pane.waitFor(/… task [0-9a-f]{12} working: step 1 of 3/, "the task's first step");
          await pane.waitFor(/… task [0-9a-f]{12} completed/, "the task's end");
          await pane.waitFor(/The build is done\./, "the answer");
          // A task that never ends: Ctrl-C cancels the turn, and the server its task.
          pane.type("run forever");
          pane.press("Enter");
          await pane.waitFor(
            // Any step from the second on: a poll may fall between two of the task's updates.
            /… task [0-9a-f]{12} working: still working \((?:[2-9]|\d{2,})\)/,
            "the task running",
          );
          pane.press("C-c");
          await pane.waitFor(
            /Cancelling this turn \(Ctrl-C\); the session goes on\./,
            "the turn cancelled",
          );
          const lines = async () => (await readFile(log, "utf8")).split("\n");
          const created = (await lines()).find((line) => line.endsWith("created by forever"));
          assert.ok(created, "the forever task was created");
          const taskId = created.split(" ")[1];
          const deadline = Date.now() + 5_000;
          while (!(await lines()).includes(`task ${taskId} cancelled`) && Date.now() < deadline)
            await new Promise((resolve) => setTimeout(resolve, 50));
          assert.ok((await lines()).includes(`task ${taskId} cancelled`), "the server stopped it");
          pane.type("/exit");
          pane.press("Enter");
          assert.equal(await pane.waitForExit(), 0);
        } finally {
          pane.close();
        }
      } finally {
        await workspace.cleanup();
      }
    },
  );
});
