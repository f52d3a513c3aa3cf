// The kernel's hook seams for the loop's other moments, from code (no Claude Code involved):
// beforeApproval answering an `ask` in the person's place (allow, deny, a throw denying,
// nothing leaving it to the person, `person` false with no approver), beforeCompaction
// holding a summary back, and a sub-agent's hooks told which sub-agent runs under which
// session.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type AgentHooks,
  type BeforeApprovalContext,
  type BeforeCompactionContext,
  createAgent,
  definePlugin,
  type HookScope,
  MemorySessionStore,
  subAgent,
} from "@pseudoclaude/core";
import { createTestTool, InMemoryToolSource, ScriptedProvider } from "@pseudoclaude/testing";

const deploy = () =>
  createTestTool({
    name: "deploy",
    description: "Deploy.",
    safety: "side_effect",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    run: () => "deployed",
  });

async function agentWith(
  hooks: AgentHooks,
  steps: ConstructorParameters<typeof ScriptedProvider>[0],
  approve?: () => "allow" | "deny",
) {
  const tool = deploy();
  const provider = new ScriptedProvider(steps);
  const agent = await createAgent({
    config: false,
    provider,
    hooks,
    policy: { mode: "default" },
    session: { id: "s-1", store: new MemorySessionStore() },
    ...(approve ? { approve } : {}),
    plugins: [
      definePlugin({
        name: "ops",
        register: (context) => void context.addToolSource(new InMemoryToolSource("ops", [tool])),
      }),
      subAgent({ name: "helper", description: "Helps.", instructions: "Help.", tools: [] }),
    ],
  });
  return { agent, tool, provider };
}

const callDeploy = { tool_calls: [{ id: "d1", name: "deploy", arguments: {} }] };

describe("kernel hook seams", () => {
  it("beforeApproval answers an ask in the person's place, or leaves it to them", async () => {
    for (const [answer, expected, asks] of [
      [{ action: "allow" }, "deployed", 0],
      [{ action: "deny", reason: "change freeze" }, "change freeze", 0],
      [undefined, "deployed", 1],
    ] as const) {
      let asked = 0;
      const seen: BeforeApprovalContext[] = [];
      const { agent, provider } = await agentWith(
        {
          beforeApproval: (context) => {
            seen.push(context);
            return answer;
          },
        },
        [callDeploy, { text: "ok" }],
        () => {
          asked += 1;
          return "allow";
        },
      );
      try {
        const result = await agent.run("deploy");
        assert.match(JSON.stringify(result.toolCalls[0]?.result.content), new RegExp(expected));
        assert.equal(asked, asks);
        assert.equal(seen[0]?.decision.verdict, "ask");
        assert.equal(seen[0]?.person, true);
        assert.equal(seen[0]?.call.name, "deploy");
        assert.equal(provider.requests.length, 2);
      } finally {
        await agent.close();
      }
    }
  });

  it("a beforeApproval hook that throws denies; with no approver it is told no person will be asked", async () => {
    const seen: boolean[] = [];
    const { agent, tool } = await agentWith(
      {
        beforeApproval: function broken(context) {
          seen.push(context.person);
          throw new Error("boom");
        },
      },
      [callDeploy, { text: "ok" }],
    );
    try {
      const result = await agent.run("deploy");
      assert.equal(tool.calls.length, 0);
      assert.equal(result.toolCalls[0]?.approval, "rejected");
      assert.match(result.toolCalls[0]?.result.error?.message ?? "", /broken failed.*boom/);
      assert.deepEqual(seen, [false]);
    } finally {
      await agent.close();
    }
  });

  it("beforeCompaction skip holds the summary back; it is told manual or auto", async () => {
    const seen: BeforeCompactionContext[] = [];
    const { agent, provider } = await agentWith(
      {
        beforeCompaction: (context) => {
          seen.push(context);
          return { action: "skip", reason: "keep everything" };
        },
      },
      [{ text: "one" }, { text: "two" }, { text: "Summary." }],
    );
    try {
      await agent.run("first");
      await agent.run("second");
      assert.equal(await agent.compact(), undefined);
      assert.equal(provider.requests.length, 2, "no summary request");
      assert.equal(seen[0]?.trigger, "manual");
      assert.equal(seen[0]?.sessionId, "s-1");
    } finally {
      await agent.close();
    }
  });

  it("beforeCompaction is told auto when the window fills before a request", async () => {
    const seen: BeforeCompactionContext[] = [];
    // Prompts of ~500 tokens against a 2,000-token window: by the fourth the request would
    // pass the threshold, and the oldest turns are due for a summary.
    const long = (word: string) => `${word} `.repeat(500);
    const provider = new ScriptedProvider(
      [{ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" }],
      { contextWindow: 2_000 },
    );
    const agent = await createAgent({
      config: false,
      provider,
      hooks: {
        beforeCompaction: (context) => {
          seen.push(context);
          return { action: "skip", reason: "keep everything" };
        },
      },
    });
    try {
      for (const word of ["alpha", "beta", "gamma", "delta"]) await agent.run(long(word));
      assert.ok(seen.length > 0, "the hook was asked");
      assert.deepEqual([...new Set(seen.map((context) => context.trigger))], ["auto"]);
      assert.equal(provider.requests.length, 4, "the summary was held back: no summary request");
    } finally {
      await agent.close();
    }
  });

  it("a sub-agent's run hooks get its tag and the parent's session", async () => {
    const scopes: HookScope[] = [];
    const { agent } = await agentWith(
      {
        beforeRun: (context) => void scopes.push(context),
        afterRun: (_result, scope) => void scopes.push(scope),
      },
      [
        { tool_calls: [{ id: "p1", name: "agent__helper", arguments: { prompt: "hi" } }] },
        { text: "child" },
        { text: "parent" },
      ],
    );
    try {
      await agent.run("delegate");
      const tags = scopes.map((scope) => [scope.sessionId, scope.subAgent?.agent ?? null]);
      assert.deepEqual(tags, [
        ["s-1", null],
        ["s-1", "helper"],
        ["s-1", "helper"],
        ["s-1", null],
      ]);
      assert.equal(scopes[1]?.subAgent?.parentCallId, "p1");
      assert.equal(scopes[1]?.subAgent?.depth, 1);
    } finally {
      await agent.close();
    }
  });
});
