// Registry scale: 1,000 and 10,000 tools from 100 sources - registering them (createAgent with
// 100 static sources), looking each up, building the model's tool list, and one source's
// list_changed of 100 tools applied while the other 99 are left alone. Prints each figure for
// both sizes and how it grows from 1,000 to 10,000 (10 is linear).
import "reflect-metadata";
import { createAgent, definePlugin } from "@pseudoclaude/core";
import { createTestTool, InMemoryToolSource } from "@pseudoclaude/testing";

const SOURCES = 100;

function tools(source: number, count: number, generation = 0) {
  return Array.from({ length: count }, (_, i) =>
    createTestTool({
      name: `s${source}_tool_${i}`,
      description: `Tool ${i} of source ${source} (generation ${generation}).`,
      safety: "read_only",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1 } },
        required: ["query"],
      },
    }),
  );
}

async function measure(total: number) {
  const perSource = total / SOURCES;
  const sources = Array.from(
    { length: SOURCES },
    (_, s) => new InMemoryToolSource(`src${s}`, tools(s, perSource)),
  );
  let start = performance.now();
  const agent = await createAgent({
    config: false,
    policy: { mode: "bypass" },
    plugins: sources.map((source, s) =>
      definePlugin({ name: `p${s}`, register: (context) => void context.addToolSource(source) }),
    ),
  });
  const registerMs = performance.now() - start;
  if (agent.registry.list().length !== total) throw new Error("not every tool registered");

  // Sub-millisecond: the best of five, so one GC pause does not decide it.
  let lookupMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    start = performance.now();
    for (let s = 0; s < SOURCES; s++)
      for (let i = 0; i < perSource; i++)
        if (!agent.registry.get(`s${s}_tool_${i}`)) throw new Error("lookup failed");
    lookupMs = Math.min(lookupMs, performance.now() - start);
  }

  // A changed registry makes the list anew; an unchanged one must not.
  start = performance.now();
  const offered = agent.offeredTools();
  const listMs = performance.now() - start;
  if (offered.length !== total) throw new Error("tool list incomplete");

  const untouched = agent.registry.toolsOf("src1");
  start = performance.now();
  sources[0]!.setTools(tools(0, 100, 1));
  const changeMs = performance.now() - start;
  if (
    agent.registry.toolsOf("src1") !== untouched &&
    agent.registry.toolsOf("src1")[0] !== untouched[0]
  )
    throw new Error("another source's tools were touched");
  await agent.close();
  return {
    register_ms: registerMs,
    lookup_ms: lookupMs,
    tool_list_ms: listMs,
    list_changed_100_ms: changeMs,
  };
}

type Figures = Awaited<ReturnType<typeof measure>>;

/** Best of three for each figure: single runs of a few milliseconds are mostly GC and JIT. */
async function best(total: number): Promise<Figures> {
  const runs = [await measure(total), await measure(total), await measure(total)];
  return Object.fromEntries(
    Object.keys(runs[0]!).map((key) => [
      key,
      Math.min(...runs.map((run) => run[key as keyof Figures])),
    ]),
  ) as Figures;
}

await measure(1_000); // warm the JIT on the small size first
const small = await best(1_000);
const large = await best(10_000);
const growth = Object.fromEntries(
  Object.keys(small).map((key) => [
    key,
    Number((large[key as keyof typeof large] / small[key as keyof typeof small]).toFixed(2)),
  ]),
);
console.log(
  JSON.stringify({ tools_1000: small, tools_10000: large, growth_1000_to_10000: growth }),
);
