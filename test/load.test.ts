import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Agent } from "@pseudoclaude/core";
import { collectGarbage } from "@pseudoclaude/testing/system";
import { mcpAgent, stdioFixture } from "#mcp-test/mcp-fixtures.js";

/**
 * Load and long runs through `agent.callTool` over real stdio servers. Sizes fit CI; the full
 * sizes of docs/reliability.md run with `npm run test:load` (LOAD_CALLS=1000 across 10
 * servers is already the full size; SOAK_CALLS=100000).
 */
const SERVERS = 10;
const LOAD_CALLS = Number(process.env.LOAD_CALLS ?? 1_000);
const SOAK_CALLS = Number(process.env.SOAK_CALLS ?? 5_000);
const TIMEOUT = { timeout: 10 * 60_000 };

const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024;

async function echo(agent: Agent, server: number, text: string): Promise<string> {
  const { result } = await agent.callTool(`mcp__s${server}__echo`, { text });
  assert.equal(result.ok, true, JSON.stringify(result.error));
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("load: many calls at once", () => {
  it(
    `answers ${LOAD_CALLS} concurrent calls across ${SERVERS} servers, each with its own result, and gives the memory back`,
    TIMEOUT,
    async () => {
      const servers = Object.fromEntries(
        Array.from({ length: SERVERS }, (_, i) => [`s${i}`, stdioFixture("behaviours")]),
      );
      const agent = await mcpAgent(servers, { policy: { mode: "bypass" } });
      try {
        // Warm with a load of the same shape: the code the load runs is compiled, and its
        // sessions and buffers made, before the baseline is taken, so what stays after the load
        // is what the calls themselves kept.
        await Promise.all(
          Array.from({ length: LOAD_CALLS }, (_, i) => echo(agent, i % SERVERS, "warm")),
        );
        collectGarbage();
        const baseline = heapMb();
        const answers = await Promise.all(
          Array.from({ length: LOAD_CALLS }, (_, i) => echo(agent, i % SERVERS, `call ${i}`)),
        );
        assert.equal(answers.length, LOAD_CALLS);
        for (const [i, answer] of answers.entries())
          assert.equal(answer, `call ${i}`, "matched to its call");
        await new Promise((resolve) => setTimeout(resolve, 100));
        collectGarbage();
        const after = heapMb();
        assert.ok(
          after <= baseline * 1.1,
          `heap ${after.toFixed(1)} MB after the load and a GC, baseline ${baseline.toFixed(1)} MB`,
        );
      } finally {
        await agent.close();
      }
    },
  );
});

describe("soak: one long session", () => {
  it(
    `keeps memory flat over ${SOAK_CALLS} sequential calls on one stdio session`,
    TIMEOUT,
    async () => {
      const agent = await mcpAgent(
        { s0: stdioFixture("behaviours") },
        { policy: { mode: "bypass" } },
      );
      try {
        for (let i = 0; i < 500; i++) await echo(agent, 0, "warm");
        collectGarbage();
        const baseline = heapMb();
        for (let i = 0; i < SOAK_CALLS; i++) assert.equal(await echo(agent, 0, `n${i}`), `n${i}`);
        collectGarbage();
        const grown = heapMb() - baseline;
        // 30 bytes a call kept would be 3 MB at the full 100,000.
        assert.ok(grown < 3, `heap grew ${grown.toFixed(2)} MB over ${SOAK_CALLS} calls`);
      } finally {
        await agent.close();
      }
    },
  );
});
