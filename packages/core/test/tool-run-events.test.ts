// A call's own run is an event pair (tool-run-start, tool-run-end) raised as the call runs, and
// the time an approver took rides on tool-decision: a display can show each result as its call
// ends and a duration that leaves the person's reading time out.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type AgentEvents, createAgent, definePlugin, type Tool } from "@pseudoclaude/core";
import {
  createTestTool,
  InMemoryToolSource,
  recordEvents,
  ScriptedProvider,
  type ScriptedStep,
  sleep,
} from "@pseudoclaude/testing";

async function agentWith(tools: Tool[], steps: ScriptedStep[], approveAfterMs?: number) {
  const source = new InMemoryToolSource("memory", tools);
  return createAgent({
    config: false,
    provider: new ScriptedProvider(steps),
    plugins: [
      definePlugin({ name: "memory", register: (context) => void context.addToolSource(source) }),
    ],
    ...(approveAfterMs === undefined
      ? {}
      : {
          approve: async () => {
            await sleep(approveAfterMs);
            return "allow" as const;
          },
        }),
  });
}

function payloads<E extends keyof AgentEvents>(
  events: Array<[keyof AgentEvents, unknown]>,
  name: E,
): Array<AgentEvents[E][0]> {
  return events.filter(([event]) => event === name).map(([, payload]) => payload as never);
}

describe("tool run events", () => {
  it("times a call's run apart from the wait for its approval", async () => {
    const write = createTestTool({
      name: "write",
      safety: "side_effect",
      run: async () => {
        await sleep(100);
        return "written";
      },
    });
    const agent = await agentWith(
      [write],
      [{ tool_calls: [{ name: "write" }] }, { text: "ok" }],
      400,
    );
    const events = recordEvents(agent);
    try {
      await agent.run("write it");
    } finally {
      await agent.close();
    }
    const order = events.map(([name]) => name).filter((name) => name.startsWith("tool-"));
    assert.deepEqual(order, [
      "tool-call-start",
      "tool-decision",
      "tool-run-start",
      "tool-run-end",
      "tool-call-end",
    ]);
    const [decision] = payloads(events, "tool-decision");
    assert.equal(decision?.approval, "approved");
    assert.ok((decision?.waitedMs ?? 0) >= 390, `waited ${decision?.waitedMs} ms`);
    const [end] = payloads(events, "tool-run-end");
    assert.equal(end?.call.name, "write");
    assert.equal(end?.result.ok, true);
    // The run took 100 ms; the 400 ms the approver took must not be in it.
    assert.ok(
      end !== undefined && end.durationMs >= 90 && end.durationMs < 390,
      `ran ${end?.durationMs} ms`,
    );
  });

  it("says a call ended as soon as it did, before the slower call of the same turn", async () => {
    const reader = (name: string, ms: number) =>
      createTestTool({
        name,
        safety: "read_only",
        run: async () => {
          await sleep(ms);
          return name;
        },
      });
    const agent = await agentWith(
      [reader("slow", 400), reader("fast", 20)],
      [
        {
          tool_calls: [
            { id: "a", name: "slow" },
            { id: "b", name: "fast" },
            { id: "c", name: "missing" },
          ],
        },
        { text: "ok" },
      ],
    );
    const events = recordEvents(agent);
    try {
      await agent.run("read both");
    } finally {
      await agent.close();
    }
    const ends = events
      .filter(([name]) => name === "tool-run-end" || name === "tool-call-end")
      .map(([name, payload]) => `${name}:${(payload as { call: { id: string } }).call.id}`);
    // Read-only calls run together: fast ends first; tool-call-end stays in call order, after.
    assert.deepEqual(ends, [
      "tool-run-end:b",
      "tool-run-end:a",
      "tool-call-end:a",
      "tool-call-end:b",
      "tool-call-end:c",
    ]);
    // The unknown tool never ran, and nobody was asked about any call.
    assert.deepEqual(
      payloads(events, "tool-run-start").map((event) => event.call.id),
      ["a", "b"],
    );
    for (const decision of payloads(events, "tool-decision"))
      assert.equal(decision.waitedMs, undefined);
  });
});
