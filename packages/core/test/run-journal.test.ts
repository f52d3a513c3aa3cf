// The kernel's journal contract, proven with a journal kept in memory: a run over it gives the
// same result as a run over none; after a worker dies mid-step, a replay runs no recorded step
// again, retries an interrupted read-only call, and asks before running an interrupted
// side-effect call again.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Agent,
  createAgent,
  definePlugin,
  type RunJournal,
  type RunResult,
  type Tool,
} from "@pseudoclaude/core";
import {
  createTestTool,
  InMemoryToolSource,
  MemoryJournal,
  ScriptedProvider,
  type ScriptedStep,
  WorkerCrash,
} from "@pseudoclaude/testing";

/** Two model turns: read twice, then write once, then answer. */
const SCRIPT: ScriptedStep[] = [
  {
    tool_calls: [
      { id: "r1", name: "read", arguments: { n: 1 } },
      { id: "r2", name: "read", arguments: { n: 2 } },
    ],
  },
  { tool_calls: [{ id: "w1", name: "write", arguments: { text: "hello" } }] },
  { text: "done" },
];

function tools() {
  const read = createTestTool({
    name: "read",
    safety: "read_only",
    run: (args) => `read ${args.n}`,
  });
  const write = createTestTool({ name: "write", run: (args) => `wrote ${args.text}` });
  return { read, write, all: [read, write] as Tool[] };
}

async function agentOver(all: Tool[], steps: ScriptedStep[]): Promise<Agent> {
  const source = new InMemoryToolSource("memory", all);
  return createAgent({
    config: false,
    provider: new ScriptedProvider(steps),
    policy: { mode: "bypass" },
    plugins: [
      definePlugin({
        name: "memory-tools",
        register: (context) => void context.addToolSource(source),
      }),
    ],
  });
}

/** A run, with what differs between processes (durations) taken out. */
function comparable(result: RunResult): unknown {
  return JSON.parse(
    JSON.stringify(result, (key, value) => (key === "duration_ms" ? undefined : value)),
  );
}

async function runOnce(steps: ScriptedStep[], all: Tool[], journal?: RunJournal) {
  const agent = await agentOver(all, steps);
  try {
    return await agent.run("go", journal ? { journal } : {});
  } finally {
    await agent.close();
  }
}

describe("the run journal", () => {
  it("a run over a journal gives the same result as a run over none, and records every step", async () => {
    const plain = await runOnce(SCRIPT, tools().all);
    const journal = new MemoryJournal();
    const journaled = await runOnce(SCRIPT, tools().all, journal);
    assert.deepEqual(comparable(journaled), comparable(plain));
    assert.deepEqual(journal.ran, [
      "turn-1:compaction",
      "turn-1:model",
      "turn-1:r1:result",
      "turn-1:r2:result",
      "turn-2:compaction",
      "turn-2:model",
      "turn-2:w1:started",
      "turn-2:w1:result",
      "turn-3:compaction",
      "turn-3:model",
    ]);
    // A replay of a finished run runs nothing: the model is not asked, no tool runs.
    const again = tools();
    const replayed = await runOnce([], again.all, journal);
    assert.deepEqual(comparable(replayed), comparable(plain));
    assert.equal(again.read.calls.length + again.write.calls.length, 0);
  });

  it("after a crash during a read-only call, the replay retries it once and runs nothing recorded again", async () => {
    const journal = new MemoryJournal();
    const first = tools();
    journal.crashDuring(/^turn-1:r2:result$/);
    await assert.rejects(runOnce(SCRIPT, first.all, journal), WorkerCrash);
    assert.deepEqual(
      first.read.calls.map((call) => call.args.n),
      [1, 2],
    );
    // The new worker: the model's first turn and r1 come from the journal.
    const second = tools();
    const result = await runOnce(SCRIPT.slice(1), second.all, journal);
    assert.deepEqual(
      second.read.calls.map((call) => call.args.n),
      [2],
      "only the interrupted read",
    );
    assert.equal(second.write.calls.length, 1);
    assert.deepEqual(comparable(result), comparable(await runOnce(SCRIPT, tools().all)));
  });

  it("after a crash during a side-effect call, the replay asks; denied, the call ends clearly and the run goes on", async () => {
    const journal = new MemoryJournal("ask", () => ({
      verdict: "deny",
      reason: "it sent already",
    }));
    const first = tools();
    journal.crashDuring(/^turn-2:w1:result$/);
    await assert.rejects(runOnce(SCRIPT, first.all, journal), WorkerCrash);
    assert.equal(first.write.calls.length, 1, "the write started in the first worker");
    const second = tools();
    const result = await runOnce(SCRIPT.slice(2), second.all, journal);
    assert.equal(second.write.calls.length, 0, "not silently run again");
    assert.equal(journal.asked.length, 1);
    assert.equal(journal.asked[0]!.interrupted, true);
    assert.match(journal.asked[0]!.decision.reason, /may have run once already/);
    const write = result.toolCalls.find((call) => call.id === "w1")!;
    assert.equal(write.result.ok, false);
    assert.equal(write.result.ok ? "" : write.result.error.code, "interrupted");
    assert.match(
      write.result.ok ? "" : write.result.error.message,
      /may have run once already\. Running it again was denied: it sent already\./,
    );
    assert.equal(result.text, "done");
  });

  it("follows on_interrupted_side_effect: allow on ask, retry and fail", async () => {
    for (const [setting, answer, runs, ok] of [
      ["ask", "allow", 1, true],
      ["retry", undefined, 1, true],
      ["fail", undefined, 0, false],
    ] as const) {
      const journal = new MemoryJournal(setting, answer ? () => answer : undefined);
      journal.crashDuring(/^turn-2:w1:result$/);
      await assert.rejects(runOnce(SCRIPT, tools().all, journal), WorkerCrash);
      const second = tools();
      const result = await runOnce(SCRIPT.slice(2), second.all, journal);
      assert.equal(second.write.calls.length, runs, setting);
      assert.equal(result.toolCalls.find((call) => call.id === "w1")!.result.ok, ok, setting);
    }
  });

  it("a durable run's approvals are asked of the journal, not of a process's callback", async () => {
    const journal = new MemoryJournal("ask", (request) =>
      request.call.name === "write" ? "allow" : "deny",
    );
    const { all, write } = tools();
    const source = new InMemoryToolSource("memory", all);
    const agent = await createAgent({
      config: false,
      provider: new ScriptedProvider(SCRIPT),
      // default mode: the write is an `ask`
      approve: () => {
        throw new Error("the in-process approver must not be asked");
      },
      plugins: [
        definePlugin({ name: "m", register: (context) => void context.addToolSource(source) }),
      ],
    });
    try {
      const result = await agent.run("go", { journal });
      assert.equal(write.calls.length, 1);
      assert.deepEqual(
        journal.asked.map((request) => request.step),
        ["turn-2:w1:approval"],
      );
      assert.equal(result.toolCalls.find((call) => call.id === "w1")?.approval, "approved");
    } finally {
      await agent.close();
    }
  });
});
