// The agent loop per turn: the scripted provider and a no-op tool, one conversation of 201
// turns; the time of turns 1-10 against turns 191-200. The provider's own work grows with the
// conversation (it is handed the whole history; the scripted one copies it to record it), so
// that time is taken out: what is left is the loop's, and it must not grow.
import "reflect-metadata";
import { createTestTool } from "@pseudoclaude/testing";
import { timedLoop } from "./timed-loop.js";

const TURNS = 200;
const noop = createTestTool({ name: "noop", safety: "read_only", run: () => "ok" });
const steps = [
  ...Array.from({ length: TURNS }, (_, i) => ({
    tool_calls: [{ id: `c${i}`, name: "noop", arguments: {} }],
  })),
  { text: "done" },
];
const { agent, providerMs, starts } = await timedLoop(steps, [noop]);
await agent.run("go");
const end = performance.now();
await agent.close();
starts.push(end);
// Turn i spans from its start to the next one's; the provider's share is taken out.
const turn = (i: number) => starts[i]! - starts[i - 1]! - providerMs[i - 1]!;
const span = (from: number, to: number) => {
  let total = 0;
  for (let i = from; i <= to; i++) total += turn(i);
  return total / (to - from + 1);
};
const early = span(2, 11);
const late = span(TURNS - 9, TURNS);
console.log(
  JSON.stringify({
    loop_turn_1_to_10_ms: Number(early.toFixed(3)),
    loop_turn_191_to_200_ms: Number(late.toFixed(3)),
    provider_turn_191_to_200_ms: Number(
      (providerMs.slice(TURNS - 10, TURNS).reduce((a, b) => a + b, 0) / 10).toFixed(3),
    ),
    growth: Number((late / early).toFixed(2)),
  }),
);
