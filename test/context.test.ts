// Context management in the kernel, with the scripted provider: a long task whose requests
// stay under the window, old tool results stubbed first, old turns summarised through the
// agent's own provider, every call paired with its result, compactions as events and in the
// session log, /compact on demand, and no compaction without a known window.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  createAgent,
  DefaultContextManager,
  definePlugin,
  estimateRequestTokens,
  MemorySessionStore,
} from "@pseudoclaude/core";
import {
  createTestTool,
  InMemoryToolSource,
  recordEvents,
  ScriptedProvider,
  type ScriptedStep,
} from "@pseudoclaude/testing";
import { pairingProblems } from "./support/pairing.js";

const WINDOW = 6_000;
const PAGE = "lorem ipsum dolor sit amet ".repeat(160); // ~4,300 chars, ~1,100 tokens

function reader() {
  return createTestTool({
    name: "read_page",
    description: "Read one page of the manual.",
    safety: "read_only",
    inputSchema: { type: "object", properties: { page: { type: "number" } } },
    run: (args) => `Page ${String(args.page)}: ${PAGE}`,
  });
}

/** A model that reads pages one by one, summarises when asked, and answers at the end. */
function longTask(pages: number): ScriptedStep[] {
  let page = 0;
  const step: ScriptedStep = (request) => {
    if (request.system.startsWith("You summarise"))
      return { text: `The agent read pages 1 to ${page} of the manual; all say lorem ipsum.` };
    page += 1;
    return page <= pages
      ? {
          // Thinking aloud, as models do: text no stub can shorten, so summaries are needed too.
          text: `Reading page ${page} next. ${"I keep notes on what each page says. ".repeat(20)}`,
          tool_calls: [{ id: `call_${page}`, name: "read_page", arguments: { page } }],
        }
      : { text: `Read all ${pages} pages.` };
  };
  return Array.from({ length: pages * 3 }, () => step);
}

async function contextAgent(
  steps: ScriptedStep[],
  options: { window?: number; contextManager?: DefaultContextManager } = {},
) {
  const provider = new ScriptedProvider(
    steps,
    options.window === undefined ? {} : { contextWindow: options.window },
  );
  const store = new MemorySessionStore();
  const agent = await createAgent({
    config: false,
    provider,
    session: { id: "long", store },
    ...(options.contextManager ? { contextManager: options.contextManager } : {}),
    plugins: [
      definePlugin({
        name: "manual",
        register: (context) =>
          void context.addToolSource(new InMemoryToolSource("manual", [reader()])),
      }),
    ],
  });
  return { agent, provider, store };
}

describe("context management", () => {
  it("keeps every request of a long task under the window, with calls and results paired", async () => {
    const { agent, provider, store } = await contextAgent(longTask(12), { window: WINDOW });
    const events = recordEvents(agent);
    try {
      const result = await agent.run("Read the whole manual, page by page.", { maxTurns: 40 });
      assert.equal(result.text, "Read all 12 pages.");
      const work = provider.requests.filter(
        (request) => !request.system.startsWith("You summarise"),
      );
      assert.equal(work.length, 13);
      for (const [index, request] of work.entries()) {
        const tokens = estimateRequestTokens(request);
        assert.ok(tokens <= WINDOW * 0.8, `request ${index + 1}: ${tokens} tokens`);
        assert.deepEqual(pairingProblems(request.messages), [], `request ${index + 1}`);
      }
      const compactions = events
        .filter(([name]) => name === "compaction")
        .map(
          ([, payload]) =>
            payload as {
              stage: string;
              tokensBefore: number;
              tokensAfter: number;
              stubbedResults: number;
            },
        );
      assert.ok(compactions.length >= 2, `${compactions.length} compactions`);
      assert.ok((compactions[0]?.stubbedResults ?? 0) > 0, "old tool results are shortened first");
      assert.ok(compactions.some((compaction) => compaction.stage === "summary"));
      for (const compaction of compactions)
        assert.ok(compaction.tokensAfter < compaction.tokensBefore);
      // The summary went through the agent's own provider, with a transcript of the old turns.
      const summary = provider.requests.find((request) =>
        request.system.startsWith("You summarise"),
      );
      assert.ok(summary);
      assert.deepEqual(summary.tools, []);
      assert.match(JSON.stringify(summary.messages), /read_page/);
      const summarized = work.find((request) =>
        JSON.stringify(request.messages[0]).includes("[Summary of the earlier conversation"),
      );
      assert.ok(summarized, "a later request starts with the summary");
      // The whole transcript stays in the session log, compactions included.
      const log = (await store.load("long"))?.entries ?? [];
      const written = log.flatMap((entry) => (entry.type === "turn" ? entry.messages : []));
      assert.equal(written.filter((message) => message.role === "tool").length, 12);
      assert.ok(
        written.every(
          (message) => message.role !== "tool" || message.result.metadata.compacted === undefined,
        ),
      );
      assert.equal(log.filter((entry) => entry.type === "compaction").length, compactions.length);
    } finally {
      await agent.close();
    }
  });

  it("summarises old turns from what their tools said, never from the stubs", async () => {
    // Stubbing and summarising in one compaction, and a summary (/compact) of results an
    // earlier compaction stubbed: either way the summary must see what each tool answered.
    const long = await contextAgent(longTask(12), { window: WINDOW });
    const short = await contextAgent(longTask(4), {
      window: 4_000,
      contextManager: new DefaultContextManager({ target: 0.8 }),
    });
    try {
      await long.agent.run("Read the whole manual, page by page.", { maxTurns: 40 });
      await short.agent.run("Read four pages.", { maxTurns: 10 });
      assert.ok(
        short.provider.requests.some((request) =>
          JSON.stringify(request.messages).includes("removed to fit the context window"),
        ),
        "the short task stubbed results before it was summarised",
      );
      assert.equal((await short.agent.compact())?.stage, "summary");
      for (const provider of [long.provider, short.provider]) {
        const summaries = provider.requests.filter((request) =>
          request.system.startsWith("You summarise"),
        );
        assert.ok(summaries.length > 0, "a summary was made");
        for (const [index, summary] of summaries.entries()) {
          const transcript = JSON.stringify(summary.messages);
          assert.doesNotMatch(
            transcript,
            /removed to fit the context window/,
            `summary ${index + 1}`,
          );
          // Every call the transcript shows comes with the page its tool returned.
          const pages = [...transcript.matchAll(/read_page with \{\\"page\\":(\d+)\}/g)].map(
            (match) => match[1],
          );
          assert.ok(pages.length > 0, `summary ${index + 1} covers tool calls`);
          for (const page of pages)
            assert.ok(
              transcript.includes(`read_page returned: Page ${page}: ${PAGE.slice(0, 40)}`),
              `summary ${index + 1} has what read_page said for page ${page}`,
            );
        }
      }
    } finally {
      await long.agent.close();
      await short.agent.close();
    }
  });

  it("stubs an old result with what was removed and how to get it again", async () => {
    // Compacting down to the threshold only: stubs alone are enough, no summary is needed.
    const { agent, provider } = await contextAgent(longTask(4), {
      window: 4_000,
      contextManager: new DefaultContextManager({ target: 0.8 }),
    });
    const events = recordEvents(agent);
    try {
      await agent.run("Read four pages.", { maxTurns: 10 });
      const last = provider.requests.at(-1);
      const stubbed = provider.requests
        .flatMap((request) => request.messages)
        .find((message) => message.role === "tool" && message.result.metadata.compacted === true);
      assert.ok(stubbed && stubbed.role === "tool", "an old result was stubbed");
      const text = stubbed.result.content[0]?.type === "text" ? stubbed.result.content[0].text : "";
      assert.match(
        text,
        /^\[Result of read_page removed to fit the context window: \d+ characters\. To see it again, call read_page with \{"page":1\}\.\]$/,
      );
      assert.equal(stubbed.result.ok, true);
      const stages = events
        .filter(([name]) => name === "compaction")
        .map(([, payload]) => (payload as { stage: string }).stage);
      assert.ok(
        stages.length > 0 && stages.every((stage) => stage === "tool_results"),
        stages.join(),
      );
      // The latest results are whole.
      const latest = last?.messages.at(-1);
      assert.ok(
        latest?.role === "tool" &&
          JSON.stringify(latest.result.content).includes(PAGE.slice(0, 50)),
      );
    } finally {
      await agent.close();
    }
  });

  it("compacts on demand with agent.compact(), and resumes the compacted conversation", async () => {
    const { agent, provider, store } = await contextAgent([
      { tool_calls: [{ id: "c1", name: "read_page", arguments: { page: 1 } }] },
      { text: "Page one is lorem ipsum." },
      { tool_calls: [{ id: "c2", name: "read_page", arguments: { page: 2 } }] },
      { text: "Page two too." },
      { text: "Summary: pages 1 and 2 are lorem ipsum." },
      { expect: { messages_include: ["Summary: pages 1 and 2"] }, text: "Yes." },
    ]);
    try {
      await agent.run("Read page 1.");
      await agent.run("Read page 2.");
      const compaction = await agent.compact();
      assert.equal(compaction?.stage, "summary");
      assert.ok(compaction && compaction.tokensAfter < compaction.tokensBefore);
      assert.equal(provider.requests.at(-1)?.system.startsWith("You summarise"), true);
      assert.deepEqual(pairingProblems(agent.conversation.messages), []);
      const resumed = await createAgent({
        config: false,
        provider,
        session: { id: "long", store },
      });
      try {
        assert.deepEqual(resumed.conversation.messages, agent.conversation.messages);
        assert.equal((await resumed.run("Did you read them?")).text, "Yes.");
      } finally {
        await resumed.close();
      }
    } finally {
      await agent.close();
    }
  });

  it("does not compact when the window is unknown", async () => {
    const { agent } = await contextAgent(longTask(3));
    const events = recordEvents(agent);
    try {
      await agent.run("Read three pages.", { maxTurns: 10 });
      assert.equal(events.filter(([name]) => name === "compaction").length, 0);
      const starts = events.filter(([name]) => name === "turn-start");
      const estimates = starts.map(
        ([, payload]) => (payload as { estimatedTokens: number }).estimatedTokens,
      );
      assert.ok(
        estimates.every((value, index) => index === 0 || value > (estimates[index - 1] ?? 0)),
        "the estimate before each request grows with the conversation",
      );
    } finally {
      await agent.close();
    }
  });

  it("calibrates its estimate with the usage providers report", () => {
    const manager = new DefaultContextManager();
    const request = {
      system: "",
      messages: [{ role: "user" as const, content: "x".repeat(4_000) }],
      tools: [],
    };
    const raw = manager.estimate(request);
    manager.observe(raw, raw * 2);
    assert.equal(manager.estimate(request), raw * 2);
    manager.observe(raw, raw * 100);
    assert.equal(manager.estimate(request), raw * 4, "bounded");
    assert.throws(() => new DefaultContextManager({ threshold: 1.5 }), /threshold must be in/);
  });
});
