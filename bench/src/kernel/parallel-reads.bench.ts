// Eight read-only calls of 100 ms in one model turn: they run together (about 100 ms), not
// one after another (800 ms).
import "reflect-metadata";
import { createAgent, definePlugin } from "@pseudoclaude/core";
import { createTestTool, InMemoryToolSource, ScriptedProvider, sleep } from "@pseudoclaude/testing";

const slow = createTestTool({
  name: "slow_read",
  safety: "read_only",
  run: async () => {
    await sleep(100);
    return "read";
  },
});
const agent = await createAgent({
  config: false,
  provider: new ScriptedProvider([
    {
      tool_calls: Array.from({ length: 8 }, (_, i) => ({
        id: `r${i}`,
        name: "slow_read",
        arguments: {},
      })),
    },
    { text: "done" },
  ]),
  plugins: [
    definePlugin({
      name: "slow",
      register: (context) => void context.addToolSource(new InMemoryToolSource("slow", [slow])),
    }),
  ],
});
let started = 0;
let ended = 0;
agent.on("turn-end", ({ turn }) => {
  if (turn === 1) started = performance.now();
});
agent.on("turn-start", ({ turn }) => {
  if (turn === 2) ended = performance.now();
});
await agent.run("read all eight");
await agent.close();
console.log(
  JSON.stringify({ eight_calls_ms: Math.round(ended - started), sequential_would_be_ms: 800 }),
);
