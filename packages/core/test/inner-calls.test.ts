// A tool that calls other tools through `context.inner` (what a code-mode program does): each
// inner call is a real call — hooks, the policy, plan mode, events naming its parent, the
// session — and in a durable run it is the inner calls that are journaled, so a replay after a
// crash runs no finished call again.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type AgentHooks,
  type CreateAgentOptions,
  createAgent,
  definePlugin,
  MemorySessionStore,
  type RunJournal,
  type Tool,
  toolFailure,
  toolSuccess,
} from "@pseudoclaude/core";
import type { ToolCall } from "@pseudoclaude/core/plugin";
import {
  createTestTool,
  InMemoryToolSource,
  MemoryJournal,
  ScriptedProvider,
  WorkerCrash,
} from "@pseudoclaude/testing";

/** A "program": reads, writes, reads again, and answers with what each call said. */
function programTool(steps: ReadonlyArray<[string, Record<string, unknown>]>): Tool {
  return {
    definition: {
      name: "program",
      description: "Runs a fixed program of calls.",
      inputSchema: { type: "object" },
      safety: "read_only",
      source: "memory",
      innerCalls: true,
    },
    async execute(_args, context) {
      const inner = context.inner;
      if (!inner) return toolFailure("internal_error", "no inner calls");
      const started = await inner.once("start", () => ({ at: "recorded" }));
      const said: string[] = [started.at];
      for (const [index, [name, args]] of steps.entries()) {
        const outcome = await inner.call(index, name, args, { signal: context.signal });
        said.push(
          outcome.result.ok
            ? `${name}:ok`
            : `${name}:${outcome.result.error.code}(${outcome.decision.verdict})`,
        );
      }
      return toolSuccess(said.join(" "));
    },
  };
}

function world() {
  const read = createTestTool({ name: "read", safety: "read_only", run: (a) => `read ${a.n}` });
  const write = createTestTool({ name: "write", run: (a) => `wrote ${a.text}` });
  return { read, write };
}

const PROGRAM: ReadonlyArray<[string, Record<string, unknown>]> = [
  ["read", { n: 1 }],
  ["write", { text: "x" }],
  ["read", { n: 2 }],
];

async function runProgram(
  tools: Tool[],
  options: Partial<CreateAgentOptions> & { journal?: RunJournal } = {},
) {
  const { journal, ...agentOptions } = options;
  const source = new InMemoryToolSource("memory", tools);
  const agent = await createAgent({
    config: false,
    provider: new ScriptedProvider([
      { tool_calls: [{ id: "c1", name: "program", arguments: {} }] },
      { text: "done" },
    ]),
    plugins: [definePlugin({ name: "m", register: (c) => void c.addToolSource(source) })],
    ...agentOptions,
  });
  const started: ToolCall[] = [];
  agent.on("tool-call-start", ({ call }) => started.push(call));
  try {
    const result = await agent.run("go", journal ? { journal } : {});
    return { agent, result, started };
  } finally {
    await agent.close();
  }
}

describe("inner calls", () => {
  it("each goes through the policy and a person, with events that name the calling tool", async () => {
    const { read, write } = world();
    const asked: string[] = [];
    const { result, started } = await runProgram([programTool(PROGRAM), read, write], {
      approve: (request) => {
        asked.push(`${request.call.name} ${request.call.id}`);
        return { verdict: "deny", reason: "not now" };
      },
    });
    const program = result.toolCalls.find((call) => call.name === "program");
    assert.equal(
      program?.result.ok && program.result.content[0]?.type === "text"
        ? program.result.content[0].text
        : undefined,
      "recorded read:ok write:denied(ask) read:ok",
    );
    assert.deepEqual(asked, ["write c1.1"], "asked about the program's write, by its own id");
    assert.equal(write.calls.length, 0);
    assert.deepEqual(
      started.map((call) => `${call.id}<${call.parentId ?? "-"}`),
      ["c1<-", "c1.0<c1", "c1.1<c1", "c1.2<c1"],
    );
    assert.deepEqual(
      result.toolCalls.map((call) => call.id),
      ["c1"],
      "the model's record holds its own call; the inner ones went to the program",
    );
  });

  it("plan mode refuses a side-effect call inside the program too; hooks see each inner call", async () => {
    const { read, write } = world();
    const seen: string[] = [];
    const hooks: AgentHooks = {
      beforeToolCall: (context) => void seen.push(context.call.name),
    };
    const { result } = await runProgram([programTool(PROGRAM), read, write], {
      policy: { mode: "plan" },
      hooks,
    });
    const text = JSON.stringify(result.toolCalls[0]?.result);
    assert.match(text, /read:ok write:denied\(deny\) read:ok/);
    assert.deepEqual(seen, ["program", "read", "write", "read"]);
  });

  it("a program cannot call a tool that makes inner calls", async () => {
    const { read } = world();
    const { result } = await runProgram([programTool([["program", {}]]), read], {
      policy: { mode: "bypass" },
    });
    assert.match(JSON.stringify(result.toolCalls[0]?.result), /program:denied\(deny\)/);
  });

  it("the session records each inner call with its parent", async () => {
    const { read, write } = world();
    const store = new MemorySessionStore();
    const { agent } = await runProgram([programTool(PROGRAM), read, write], {
      policy: { mode: "bypass" },
      session: { store },
    });
    const entries = (await store.load(agent.sessionId!))?.entries ?? [];
    const inner = entries.filter((entry) => entry.type === "inner-call");
    assert.deepEqual(
      inner.map(
        (entry) =>
          entry.type === "inner-call" && [
            entry.callId,
            entry.parentCallId,
            entry.tool,
            entry.verdict,
            entry.ok,
          ],
      ),
      [
        ["c1.0", "c1", "read", "allow", true],
        ["c1.1", "c1", "write", "allow", true],
        ["c1.2", "c1", "read", "allow", true],
      ],
    );
  });

  it("in a durable run the inner calls are the steps; after a crash the replay runs no finished call again", async () => {
    const journal = new MemoryJournal();
    const first = world();
    journal.crashDuring(/^turn-1:c1\.2:result$/);
    await assert.rejects(
      runProgram([programTool(PROGRAM), first.read, first.write], {
        policy: { mode: "bypass" },
        journal,
      }),
      WorkerCrash,
    );
    assert.deepEqual(
      journal.ran.filter((name) => name.startsWith("turn-1:c1")),
      [
        "turn-1:c1:start",
        "turn-1:c1.0:result",
        "turn-1:c1.1:started",
        "turn-1:c1.1:result",
        "turn-1:c1.2:result",
      ],
    );
    const second = world();
    // The model's turn is in the journal: the new worker's model is not asked for it again.
    const { result } = await runProgram([programTool(PROGRAM), second.read, second.write], {
      policy: { mode: "bypass" },
      provider: new ScriptedProvider([{ text: "done" }]),
      journal,
    });
    assert.equal(second.write.calls.length, 0, "the write is not run again");
    assert.deepEqual(
      second.read.calls.map((call) => call.args.n),
      [2],
      "only the interrupted read",
    );
    assert.match(JSON.stringify(result.toolCalls[0]?.result), /recorded read:ok write:ok read:ok/);
  });

  it("in a durable run overlapping inner calls run one after another, so their steps keep one order", async () => {
    const journal = new MemoryJournal();
    const slow = createTestTool({
      name: "slow",
      run: async (a) => {
        await new Promise((resolve) => setTimeout(resolve, Number(a.ms)));
        return `slept ${a.ms}`;
      },
    });
    const overlapping: Tool = {
      ...programTool([]),
      async execute(_args, context) {
        const inner = context.inner!;
        // The first call takes longest: in process it would finish last.
        const outcomes = await Promise.all([
          inner.call(0, "slow", { ms: 60 }),
          inner.call(1, "slow", { ms: 1 }),
        ]);
        return toolSuccess(outcomes.map((o) => (o.result.ok ? "ok" : "failed")).join(" "));
      },
    };
    await runProgram([overlapping, slow], { policy: { mode: "bypass" }, journal });
    assert.deepEqual(
      journal.ran.filter((name) => name.startsWith("turn-1:c1.")),
      ["turn-1:c1.0:started", "turn-1:c1.0:result", "turn-1:c1.1:started", "turn-1:c1.1:result"],
    );
  });

  it("in a durable run an inner call's approval is asked of the journal, under its own step", async () => {
    const journal = new MemoryJournal("ask", (request) =>
      request.call.name === "write" ? "allow" : "deny",
    );
    const { read, write } = world();
    const { result } = await runProgram([programTool(PROGRAM), read, write], {
      approve: () => {
        throw new Error("the in-process approver must not be asked");
      },
      journal,
    });
    assert.deepEqual(
      journal.asked.map((request) => request.step),
      ["turn-1:c1.1:approval"],
    );
    assert.equal(write.calls.length, 1);
    assert.match(JSON.stringify(result.toolCalls[0]?.result), /read:ok write:ok read:ok/);
  });
});
