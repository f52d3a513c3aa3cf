// What the run journal costs per turn, in one process: the same 150-turn conversation (the
// scripted provider, a no-op read-only tool and a no-op side-effect tool each turn) with the
// default in-process journal, with a journal that records nothing but takes every journaled
// path (step names, the started record and checkpoint of a side-effect call), and with a
// journal that records every step as JSON (MemoryJournal: what a durable engine's own
// bookkeeping adds before its storage). Interleaved, the order rotated, medians of the loop's
// time per turn with the provider's share taken out. The default must cost what no journal
// would: the short circuits mean it builds no step name and records nothing.
import "reflect-metadata";
import type { RunJournal } from "@pseudoclaude/core";
import { createTestTool, MemoryJournal } from "@pseudoclaude/testing";
import { timedLoop } from "./timed-loop.js";

const TURNS = 150;
const REPS = Number(process.env.BENCH_JOURNAL_REPS ?? 9);
const read = createTestTool({ name: "peek", safety: "read_only", run: () => "ok" });
const write = createTestTool({ name: "poke", safety: "side_effect", run: () => "ok" });
const steps = [
  ...Array.from({ length: TURNS }, (_, i) => ({
    tool_calls: [
      { id: `r${i}`, name: "peek", arguments: {} },
      { id: `w${i}`, name: "poke", arguments: {} },
    ],
  })),
  { text: "done" },
];

const PASS_THROUGH: RunJournal = {
  step: (_name, fn) => fn(),
  checkpoint: async () => undefined,
};

type Kind = "in_process" | "pass_through" | "memory";
const journals: Record<Kind, () => RunJournal | undefined> = {
  in_process: () => undefined,
  pass_through: () => PASS_THROUGH,
  memory: () => new MemoryJournal(),
};

/** One conversation; the loop's mean time per turn (turns 11 to TURNS: the first ones are warm-up), provider time out. */
async function perTurn(kind: Kind): Promise<number> {
  const { agent, providerMs, starts } = await timedLoop(steps, [read, write]);
  const journal = journals[kind]();
  await agent.run("go", journal ? { journal } : {});
  starts.push(performance.now());
  await agent.close();
  let total = 0;
  for (let i = 11; i <= TURNS; i++) total += starts[i]! - starts[i - 1]! - providerMs[i - 1]!;
  return total / (TURNS - 10);
}

const kinds: Kind[] = ["in_process", "pass_through", "memory"];
const figures: Record<Kind, number[]> = { in_process: [], pass_through: [], memory: [] };
await perTurn("in_process"); // warm-up: the JIT, module loading
for (let rep = 0; rep < REPS; rep++) {
  const order = kinds.map((_, i) => kinds[(i + rep) % kinds.length]!);
  for (const kind of order) figures[kind].push(await perTurn(kind));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const base = median(figures.in_process);
console.log(
  JSON.stringify({
    turn_ms_in_process: Number(base.toFixed(3)),
    turn_ms_pass_through: Number(median(figures.pass_through).toFixed(3)),
    turn_ms_memory_journal: Number(median(figures.memory).toFixed(3)),
    pass_through_vs_in_process: Number((median(figures.pass_through) / base).toFixed(2)),
    memory_journal_vs_in_process: Number((median(figures.memory) / base).toFixed(2)),
  }),
);
