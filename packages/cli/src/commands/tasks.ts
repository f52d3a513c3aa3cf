import { FileSessionStore, type SessionTask, sessionTasks } from "@pseudoclaude/core";
import { loadCliConfig } from "../cli-agent.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { reportSessionNotFound, requireSessionId, sessionNotFound } from "../session-id-errors.js";

/** `pseudoclaude tasks [SESSION_ID]`: the long-running tool tasks of a saved session. */
export const tasksCommand: CommandSpec = {
  name: "tasks",
  summary: "List the long-running tasks (MCP tasks) of a session: running and finished.",
  usage: `Usage: pseudoclaude tasks [SESSION_ID] [--json] [--workspace DIR]

A tool call that its MCP server runs as a task outlives the call timeout; each of its
statuses is saved in the session. Lists the tasks of SESSION_ID (default: the workspace's
latest session), the order they started: task id, status, tool, last status message, last
update. "running" means no end was heard: the task still runs, or its process stopped first.

  --json   {"session": ID, "tasks": [{"task_id", "tool", "call_id", "status",
            "status_message", "started", "updated", "running"}]}

Exits 1 when there is no such session, or no session at all (session_not_found); 2 for an id
that could not be one (invalid_session_id).`,
  flags: [],
  positionals: { min: 0, max: 1, names: "[SESSION_ID]" },
  run: runTasks,
};

async function runTasks({ flags, args, io }: CommandContext): Promise<number> {
  const { workspace } = await loadCliConfig(flags, io);
  const store = new FileSessionStore({ workspace });
  const given =
    args[0] === undefined ? undefined : requireSessionId(args[0], { argument: "SESSION_ID" });
  const id = given ?? (await store.list())[0]?.id;
  const loaded = id === undefined ? undefined : await store.load(id);
  if (!loaded)
    return reportSessionNotFound(
      io,
      flags.json ?? false,
      id === undefined
        ? sessionNotFound(`No sessions in ${workspace} yet.`)
        : sessionNotFound(
            `No session "${id}" in this workspace (pseudoclaude sessions lists them).`,
            { argument: "SESSION_ID", value: id },
          ),
    );
  const tasks = sessionTasks(loaded.entries);
  if (flags.json) {
    writeJson(io.stdout, { session: loaded.id, tasks: tasks.map(taskToJson) });
    return EXIT.ok;
  }
  if (tasks.length === 0) {
    writeLine(io.stdout, `Session ${loaded.id} ran no tasks.`);
    return EXIT.ok;
  }
  for (const task of tasks) writeLine(io.stdout, taskLine(task));
  return EXIT.ok;
}

function taskToJson(task: SessionTask) {
  return {
    task_id: task.taskId,
    tool: task.tool,
    call_id: task.callId,
    status: task.status,
    status_message: task.statusMessage ?? null,
    started: task.started,
    updated: task.updated,
    running: task.running,
  };
}

/** `1a2b…  completed  mcp__jobs__build  "step 4 of 4"  2026-12-03 15:40` */
function taskLine(task: SessionTask): string {
  const when = task.updated.replace("T", " ").slice(0, 16);
  const status = task.running ? `${task.status} (running)` : task.status;
  return `${task.taskId}  ${status}  ${task.tool}  ${JSON.stringify(task.statusMessage ?? "")}  ${when}`;
}
