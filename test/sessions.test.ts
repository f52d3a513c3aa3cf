// Sessions in the kernel: saved turn by turn, resumed exactly, listed and deleted; the JSONL
// file private, in the user's directory, and crash-safe (a process killed while appending
// leaves a loadable session; a torn last line is dropped with a diagnostic).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFile, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  createAgent,
  definePlugin,
  FileSessionStore,
  MemorySessionStore,
  type SessionStore,
  sessionFolder,
  UsageError,
} from "@pseudoclaude/core";
import {
  createTempWorkspace,
  createTestTool,
  InMemoryToolSource,
  ScriptedProvider,
  type ScriptedStep,
} from "@pseudoclaude/testing";

const APPEND_FOREVER = fileURLToPath(
  new URL("./fixtures/sessions/append-forever.js", import.meta.url),
);

const forecast = () =>
  createTestTool({
    name: "get_forecast",
    description: "Forecast for a city.",
    safety: "read_only",
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
    run: (args) => `Sunny in ${String(args.city)}.`,
  });

async function sessionAgent(
  steps: ScriptedStep[],
  session: { id?: string; store?: SessionStore },
  options: { tools?: boolean; homeDir?: string; workspace?: string } = {},
) {
  const provider = new ScriptedProvider(steps);
  const agent = await createAgent({
    ...(options.workspace ? { workspace: options.workspace } : {}),
    config: options.homeDir ? { homeDir: options.homeDir } : false,
    provider,
    session,
    plugins:
      options.tools === false
        ? []
        : [
            definePlugin({
              name: "tools",
              register: (context) =>
                void context.addToolSource(new InMemoryToolSource("memory", [forecast()])),
            }),
          ],
  });
  return { agent, provider };
}

describe("sessions", () => {
  it("saves each turn and resumes the conversation exactly, tool pairs included", async () => {
    const store = new MemorySessionStore();
    const first = await sessionAgent(
      [
        { tool_calls: [{ id: "call_1", name: "get_forecast", arguments: { city: "Oslo" } }] },
        { text: "Sunny in Oslo." },
      ],
      { id: "trip", store },
    );
    await first.agent.run("Weather in Oslo?");
    const before = structuredClone([...first.agent.conversation.messages]);
    await first.agent.close();

    const second = await sessionAgent([{ text: "Still sunny." }], { id: "trip", store });
    try {
      assert.equal(second.agent.sessionId, "trip");
      assert.deepEqual(second.agent.conversation.messages, before);
      await second.agent.run("And now?");
      const sent = second.provider.requests[0]?.messages ?? [];
      assert.deepEqual(
        sent.map((message) => message.role),
        ["user", "assistant", "tool", "assistant", "user"],
      );
      const [summary] = await store.list();
      assert.equal(summary?.id, "trip");
      assert.equal(summary?.turns, 3);
      assert.equal(summary?.firstPrompt, "Weather in Oslo?");
    } finally {
      await second.agent.close();
    }
  });

  it("a new agent without an id starts a new session; with an unknown id, a new one by that name", async () => {
    const store = new MemorySessionStore();
    const fresh = await sessionAgent([{ text: "Hi." }], { store });
    const named = await sessionAgent([{ text: "Hello." }], { id: "mine", store });
    try {
      assert.match(fresh.agent.sessionId ?? "", /^[0-9a-f-]{36}$/);
      assert.equal(named.agent.conversation.length, 0);
      assert.equal((await store.list()).length, 0, "nothing is written before a run");
      await fresh.agent.run("hi");
      await named.agent.run("hello");
      assert.deepEqual(
        (await store.list()).map((summary) => summary.id).sort(),
        [fresh.agent.sessionId, "mine"].sort(),
      );
    } finally {
      await Promise.all([fresh.agent.close(), named.agent.close()]);
    }
  });

  it("gives a tool that no longer exists a clear result when the model calls it after a resume", async () => {
    const store = new MemorySessionStore();
    const first = await sessionAgent(
      [{ tool_calls: [{ name: "get_forecast", arguments: { city: "Rome" } }] }, { text: "ok" }],
      { id: "old-tools", store },
    );
    await first.agent.run("Weather?");
    await first.agent.close();
    const second = await sessionAgent(
      [{ tool_calls: [{ name: "get_forecast", arguments: { city: "Rome" } }] }, { text: "gone" }],
      { id: "old-tools", store },
      { tools: false },
    );
    try {
      const result = await second.agent.run("Again?");
      assert.equal(result.toolCalls[0]?.result.ok, false);
      assert.equal(result.toolCalls[0]?.result.error?.code, "unknown_tool");
      assert.match(result.toolCalls[0]?.result.error?.message ?? "", /Unknown tool "get_forecast"/);
    } finally {
      await second.agent.close();
    }
  });

  it("pairs a call whose result was never written, so the model can go on", async () => {
    const store = new MemorySessionStore();
    await store.append("cut", [
      { type: "session", version: 1, id: "cut", workspace: "/w", created: "2026-12-01T00:00:00Z" },
      {
        type: "turn",
        at: "2026-12-01T00:00:01Z",
        messages: [
          { role: "user", content: "Run it" },
          {
            role: "assistant",
            text: "",
            toolCalls: [{ id: "call_x", name: "deploy", arguments: {} }],
          },
        ],
      },
    ]);
    const { agent, provider } = await sessionAgent([{ text: "It may have run." }], {
      id: "cut",
      store,
    });
    try {
      assert.ok(agent.diagnostics().some((diagnostic) => diagnostic.code === "session_repaired"));
      await agent.run("Did it?");
      const sent = provider.requests[0]?.messages ?? [];
      const result = sent[2];
      assert.equal(result?.role, "tool");
      assert.equal(result?.role === "tool" ? result.callId : "", "call_x");
      assert.match(
        result?.role === "tool" ? (result.result.error?.message ?? "") : "",
        /the session ended before it finished, so it may or may not have run/,
      );
    } finally {
      await agent.close();
    }
  });

  it("writes a clear before what follows it, and resumes after the clear", async () => {
    const store = new MemorySessionStore();
    const first = await sessionAgent([{ text: "one" }, { text: "two" }], { id: "c", store });
    await first.agent.run("first");
    first.agent.conversation.clear();
    await first.agent.run("second");
    await first.agent.close();
    const loaded = await store.load("c");
    assert.deepEqual(
      loaded?.entries.map((entry) => entry.type),
      ["session", "turn", "clear", "turn"],
    );
    const second = await sessionAgent([], { id: "c", store });
    try {
      assert.deepEqual(
        second.agent.conversation.messages.map((message) => message.role),
        ["user", "assistant"],
      );
    } finally {
      await second.agent.close();
    }
  });

  it("switches a live agent to another session with resumeSession", async () => {
    const store = new MemorySessionStore();
    const a = await sessionAgent([{ text: "A." }], { id: "a", store });
    await a.agent.run("in a");
    await a.agent.close();
    const b = await sessionAgent([{ text: "B." }, { text: "back in a" }], { id: "b", store });
    try {
      await b.agent.run("in b");
      await b.agent.resumeSession("a");
      assert.equal(b.agent.sessionId, "a");
      await b.agent.run("continue a");
      const aLog = await store.load("a");
      assert.equal(aLog?.entries.filter((entry) => entry.type === "turn").length, 2);
      await assert.rejects(
        b.agent.resumeSession("nope"),
        (error: unknown) => error instanceof UsageError && error.code === "session_not_found",
      );
      await assert.rejects(b.agent.resumeSession("../etc"), /is not a session id/);
    } finally {
      await b.agent.close();
    }
  });
});

describe("the session file", () => {
  it("is one JSONL file per session in the user's directory, 0600, keyed by workspace", async () => {
    const workspace = await createTempWorkspace("pc-session-file-");
    try {
      const { agent } = await sessionAgent(
        [{ text: "Saved." }],
        { id: "s1" },
        { homeDir: workspace.home, workspace: workspace.root },
      );
      await agent.run("Save me");
      await agent.close();
      const folder = sessionFolder(workspace.root, workspace.home);
      assert.ok(folder.startsWith(path.join(workspace.home, ".PseudoClaude", "sessions")));
      assert.ok(!folder.startsWith(workspace.root), "never in the workspace");
      const file = path.join(folder, "s1.jsonl");
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      assert.equal((await stat(folder)).mode & 0o777, 0o700);
      const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
      assert.deepEqual(
        lines.map((line) => JSON.parse(line).type),
        ["session", "turn"],
      );
      const store = new FileSessionStore({ workspace: workspace.root, homeDir: workspace.home });
      assert.deepEqual(
        (await store.list()).map((summary) => [summary.id, summary.firstPrompt, summary.turns]),
        [["s1", "Save me", 1]],
      );
      const other = new FileSessionStore({ workspace: workspace.home, homeDir: workspace.home });
      assert.deepEqual(await other.list(), [], "another workspace has its own sessions");
      assert.equal(await store.delete("s1"), true);
      assert.equal(await store.delete("s1"), false);
      assert.deepEqual(await store.list(), []);
    } finally {
      await workspace.cleanup();
    }
  });

  it("drops a torn last line with a diagnostic, keeps every earlier turn, and appends after it", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), "pc-torn-"));
    try {
      const store = new FileSessionStore({ workspace: folder, folder });
      await store.append("t", [
        {
          type: "session",
          version: 1,
          id: "t",
          workspace: folder,
          created: "2026-12-01T00:00:00Z",
        },
        { type: "turn", at: "2026-12-01T00:00:01Z", messages: [{ role: "user", content: "kept" }] },
      ]);
      await appendFile(path.join(folder, "t.jsonl"), '{"type":"turn","at":"2026-12-01T00:0');
      const torn = await store.load("t");
      assert.equal(torn?.entries.length, 2);
      assert.deepEqual(
        torn?.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line]),
        [["session_torn_line", 3]],
      );
      await store.append("t", [
        {
          type: "turn",
          at: "2026-12-01T00:00:02Z",
          messages: [{ role: "user", content: "after" }],
        },
      ]);
      const after = await store.load("t");
      assert.equal(after?.entries.length, 3, "the new turn is on a line of its own");
      assert.equal(after?.diagnostics[0]?.code, "session_bad_line");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("survives a process killed while appending: the session loads, every whole turn intact", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), "pc-crash-"));
    try {
      for (let round = 0; round < 3; round++) {
        const id = `crash-${round}`;
        const child = spawn(process.execPath, [APPEND_FOREVER, folder, id], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
        // Let it write for a moment more, then kill it where it is, mid-append or not.
        await new Promise((resolve) => setTimeout(resolve, 20 + round * 15));
        child.kill("SIGKILL");
        await new Promise((resolve) => child.once("exit", resolve));
        const loaded = await new FileSessionStore({ workspace: folder, folder }).load(id);
        assert.ok(loaded, "the session is there");
        const turns = loaded.entries.filter((entry) => entry.type === "turn");
        assert.ok(turns.length >= 3, `whole turns kept (${turns.length})`);
        turns.forEach((entry, index) => {
          assert.equal(entry.type === "turn" ? entry.usage?.inputTokens : -1, index + 1);
        });
        assert.ok(
          loaded.diagnostics.every((diagnostic) => diagnostic.code === "session_torn_line"),
          "at most the last line is torn",
        );
        assert.ok(loaded.diagnostics.length <= 1);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
