// Long-running tools as MCP tasks in both eras, against real servers over stdio and Streamable
// HTTP: 2025-11-25 on the 1.x SDK's tasks (plugins/mcp/test/fixtures/tasks.ts), 2026-07-28 with the
// Tasks extension on the v2 server package (modern-tasks.ts). A task outlives the call timeout
// and reports its statuses, fails with the server's words, is cancelled (tasks/cancel, which
// the server's log shows) on Ctrl-C, on agent.close() and at its own task_timeout_ms, and
// each status is kept in the session's log.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Agent,
  FileSessionStore,
  type ToolResult,
  type ToolTaskUpdate,
} from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { type HttpServerProcess, startHttpServer } from "@pseudoclaude/testing/system";
import { eventually, fixture, mcpAgent, scratch, stdioFixture } from "./support/mcp-fixtures.js";

const TIMEOUT = { timeout: 60_000 };

type Transport = "stdio" | "http";
type Era = "2025-11-25" | "2026-07-28";

const FIXTURES: Record<Era, string> = { "2025-11-25": "tasks", "2026-07-28": "modern-tasks" };

/** The era's tasks server over `transport`, logging to `log`; stopped by the returned function. */
async function tasksServer(
  transport: Transport,
  log: string,
  extra: Record<string, unknown> = {},
  era: Era = "2025-11-25",
): Promise<{ entry: Record<string, unknown>; stop(): Promise<void> }> {
  const pinned = { protocol: era, ...extra };
  if (transport === "stdio")
    return {
      entry: stdioFixture(FIXTURES[era], { env: { FIXTURE_LOG: log }, ...pinned }),
      stop: async () => undefined,
    };
  const http: HttpServerProcess = await startHttpServer({
    script: fixture(FIXTURES[era]),
    env: { FIXTURE_LOG: log },
  });
  return { entry: { type: "http", url: http.url("/mcp"), ...pinned }, stop: () => http.stop() };
}

/** An agent with the era's tasks server as `jobs` (over `transport`), closed after `body`. */
async function withJobs(
  era: Era,
  transport: Transport,
  extra: Record<string, unknown>,
  body: (agent: Agent, files: Awaited<ReturnType<typeof scratch>>) => Promise<void>,
): Promise<void> {
  const files = await scratch();
  const server = await tasksServer(transport, files.log, extra, era);
  let agent: Agent | undefined;
  try {
    agent = await mcpAgent({ jobs: server.entry }, { policy: { mode: "bypass" } });
    await body(agent, files);
  } finally {
    await agent?.close();
    await server.stop();
    await files.cleanup();
  }
}

function taskEvents(agent: Agent): ToolTaskUpdate[] {
  const seen: ToolTaskUpdate[] = [];
  agent.on("tool-task", ({ task }) => seen.push(task));
  return seen;
}

/**
 * The step of a never-ending task's "still working (N)" status, or 0. A poll may fall between
 * two updates, so a test waits for a step at least as far, not for one exact status.
 */
function workingStep(update: ToolTaskUpdate): number {
  return Number(/^still working \((\d+)\)$/.exec(update.statusMessage ?? "")?.[1] ?? 0);
}

const text = (result: ToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("");

for (const era of ["2025-11-25", "2026-07-28"] as const)
  for (const transport of ["stdio", "http"] as const) {
    const modern = era === "2026-07-28";
    describe(`MCP tasks in ${era} over ${transport}`, () => {
      it(
        "a task that runs four times longer than the call timeout completes, reporting each status",
        TIMEOUT,
        async () => {
          await withJobs(era, transport, { call_timeout_ms: 1_000 }, async (agent, files) => {
            const tool = agent.registry.get("mcp__jobs__build")?.definition;
            // 2026-07-28 lists no task support per tool: its server decides per call.
            assert.equal(tool?.meta?.task_support, modern ? undefined : "required");
            const events = taskEvents(agent);
            const { result } = await agent.callTool("mcp__jobs__build", { steps: 4, step_ms: 600 });
            assert.equal(result.ok, true, JSON.stringify(result));
            assert.equal(text(result), "built in 4 steps");
            assert.equal(result.metadata.timeout_ms, 1_000, "the call timeout was 1 s");
            assert.ok((result.metadata.duration_ms as number) >= 2_400, "the task ran past it");
            const taskId = result.metadata.task_id as string;
            assert.match(taskId, /^[0-9a-f]{32}$/);
            assert.ok(events.every((event) => event.taskId === taskId));
            assert.equal(events[0]?.status, "working");
            const messages = events.map((event) => event.statusMessage).filter(Boolean);
            for (const step of ["step 1 of 4", "step 2 of 4", "step 3 of 4"])
              assert.ok(messages.includes(step), `${step} reported: ${JSON.stringify(events)}`);
            assert.equal(events.at(-1)?.status, "completed");
            const created = (await files.lines()).filter((line) =>
              line.endsWith("created by build"),
            );
            assert.deepEqual(
              created,
              [`task ${taskId} created by build`],
              "one task, started once",
            );
          });
        },
      );

      it("a task that fails is a tool error in the server's own words", TIMEOUT, async () => {
        await withJobs(era, transport, {}, async (agent) => {
          const events = taskEvents(agent);
          const { result } = await agent.callTool("mcp__jobs__failing_job", {});
          assert.equal(result.ok, false);
          assert.equal(result.error?.code, "mcp_tool_error");
          // 2025-11-25 keeps the failed task's result; 2026-07-28 has the task's error.
          if (modern)
            assert.match(
              text(result),
              /^Task [0-9a-f]{32} of "failing_job" on MCP server "jobs" failed: the job broke$/,
            );
          else assert.equal(text(result), "the job broke at step 1");
          assert.equal(events.at(-1)?.status, "failed");
          if (!modern) {
            // A tool that only may run as a task runs as one on a server that runs tasks.
            const quick = await agent.callTool("mcp__jobs__quick", { text: "hello" });
            assert.equal(text(quick.result), "hello");
            assert.ok(quick.result.metadata.task_id, "quick ran as a task");
          }
          // A tool without task support is called as before.
          const echo = await agent.callTool("mcp__jobs__echo", { text: "plain" });
          assert.equal(text(echo.result), "plain");
          assert.equal(echo.result.metadata.task_id, undefined);
        });
      });

      it(
        "Ctrl-C cancels the task on the server (tasks/cancel), not only the waiting",
        TIMEOUT,
        async () => {
          await withJobs(era, transport, {}, async (agent, files) => {
            const events = taskEvents(agent);
            const controller = new AbortController();
            const call = agent.callTool("mcp__jobs__forever", {}, { signal: controller.signal });
            await eventually(
              () => events.some((e) => workingStep(e) >= 2),
              20_000,
              "the task's second status",
            );
            controller.abort();
            const { result } = await call;
            assert.equal(result.ok, false);
            assert.equal(result.metadata.reason, "cancelled");
            const taskId = events[0]!.taskId;
            assert.match(
              text(result),
              new RegExp(`Task ${taskId} .*was cancelled; the server was sent tasks/cancel`),
            );
            await eventually(
              async () => (await files.lines()).includes(`task ${taskId} cancelled`),
              20_000,
              "the server to stop the task",
            );
          });
        },
      );

      it(
        "task_timeout_ms bounds the whole task, and the task is cancelled when it passes",
        TIMEOUT,
        async () => {
          await withJobs(
            era,
            transport,
            { call_timeout_ms: 10_000, task_timeout_ms: 700 },
            async (agent, files) => {
              assert.equal(agent.registry.get("mcp__jobs__forever")?.definition.taskTimeoutMs, 700);
              const started = Date.now();
              const { result } = await agent.callTool("mcp__jobs__forever", {});
              assert.equal(result.ok, false);
              assert.equal(result.metadata.reason, "timeout");
              assert.match(text(result), /timed out after 700 ms \(its task_timeout_ms\)/);
              assert.ok(Date.now() - started < 8_000, "not the 10 s call timeout");
              const taskId = result.metadata.task_id as string;
              await eventually(
                async () => (await files.lines()).includes(`task ${taskId} cancelled`),
                20_000,
                "the server to stop the task",
              );
            },
          );
        },
      );
    });
  }

describe("MCP tasks and the agent", () => {
  for (const era of ["2025-11-25", "2026-07-28"] as const)
    it(`agent.close() cancels a task still running (${era})`, TIMEOUT, async () => {
      await withJobs(era, "http", {}, async (agent, files) => {
        const events = taskEvents(agent);
        const call = agent.callTool("mcp__jobs__forever", {});
        await eventually(
          () => events.some((e) => workingStep(e) >= 1),
          20_000,
          "the task's first status",
        );
        await agent.close();
        const { result } = await call;
        assert.equal(result.ok, false);
        const taskId = events[0]!.taskId;
        await eventually(
          async () => (await files.lines()).includes(`task ${taskId} cancelled`),
          20_000,
          "the server to stop the task",
        );
      });
    });

  it("a run keeps each status of its task in the session's log", TIMEOUT, async () => {
    const files = await scratch();
    let agent: Agent | undefined;
    try {
      const store = new FileSessionStore({ workspace: files.dir, homeDir: files.dir });
      agent = await mcpAgent(
        { jobs: stdioFixture("tasks", { env: { FIXTURE_LOG: files.log } }) },
        {
          policy: { mode: "bypass" },
          session: { id: "with-task", store },
          provider: new ScriptedProvider([
            {
              tool_calls: [
                { id: "b1", name: "mcp__jobs__build", arguments: { steps: 2, step_ms: 200 } },
              ],
            },
            { text: "built" },
          ]),
        },
      );
      const run = await agent.run("build it");
      assert.equal(run.text, "built");
      const loaded = await store.load("with-task");
      const tasks = loaded!.entries.filter((entry) => entry.type === "task");
      assert.ok(tasks.length >= 3, JSON.stringify(tasks));
      const taskId = run.toolCalls[0]!.result.metadata.task_id;
      for (const entry of tasks) {
        assert.equal(entry.taskId, taskId);
        assert.equal(entry.callId, "b1");
        assert.equal(entry.tool, "mcp__jobs__build");
      }
      assert.equal(tasks[0]?.status, "working");
      assert.equal(tasks.at(-1)?.status, "completed");
      assert.ok(tasks.some((entry) => entry.statusMessage === "step 1 of 2"));
      // The conversation restores as before: task entries are not messages.
      const again = await mcpAgent(
        {},
        {
          session: { id: "with-task", store },
          provider: new ScriptedProvider([
            { expect: { messages_include: ["built in 2 steps"] }, text: "ok" },
          ]),
        },
      );
      try {
        assert.equal((await again.run("and?")).text, "ok");
      } finally {
        await again.close();
      }
    } finally {
      await agent?.close();
      await files.cleanup();
    }
  });
});
