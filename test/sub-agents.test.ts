// Sub-agents in the kernel: a child with a narrowed tool set (a call outside it refused, the
// parent's policy over the rest), its answer and usage going to the parent, its events tagged
// with depth and the parent's call, cancellation reaching the child's MCP call (the real
// server sees notifications/cancelled), and the depth limit ending recursion.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type AgentEvents,
  createAgent,
  definePlugin,
  subAgent,
  subAgentToolName,
} from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { InMemoryToolSource, ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";
import { eventually, scratch, stdioFixture } from "#mcp-test/mcp-fixtures.js";
import { fileTools } from "./support/file-tools.js";

const researcher = subAgent({
  name: "researcher",
  description: "Reads files and reports what they say. Cannot change anything.",
  instructions: "You research. Read, never write.",
  tools: ["read_file"],
});

async function parentAgent(steps: ScriptedStep[]) {
  const provider = new ScriptedProvider(steps);
  const tools = fileTools();
  const agent = await createAgent({
    config: false,
    provider,
    policy: { mode: "bypass" },
    plugins: [
      definePlugin({
        name: "files",
        register: (context) =>
          void context.addToolSource(new InMemoryToolSource("files", [tools.read, tools.write])),
      }),
      researcher,
    ],
  });
  return { agent, provider, tools };
}

const delegate = (prompt: string) => ({
  tool_calls: [{ id: "p1", name: "agent__researcher", arguments: { prompt } }],
});

describe("sub-agents", () => {
  it("runs a child with only the tools it was given; its answer and usage reach the parent", async () => {
    const { agent, provider, tools } = await parentAgent([
      delegate("What does notes.md say?"),
      // The child: it is offered read_file only, tries write_file anyway, then reads.
      {
        expect: { system_includes: ["You research. Read, never write."], tools: ["read_file"] },
        tool_calls: [{ id: "c1", name: "write_file", arguments: { path: "notes.md" } }],
        usage: { input_tokens: 100, output_tokens: 10 },
      },
      {
        tool_calls: [{ id: "c2", name: "read_file", arguments: { path: "notes.md" } }],
        usage: { input_tokens: 120, output_tokens: 12 },
      },
      {
        text: "notes.md says: contents of notes.md",
        usage: { input_tokens: 130, output_tokens: 8 },
      },
      {
        text: "The researcher says notes.md holds its contents.",
        usage: { input_tokens: 50, output_tokens: 5 },
      },
    ]);
    try {
      const result = await agent.run("Summarise notes.md");
      assert.equal(result.text, "The researcher says notes.md holds its contents.");
      const call = result.toolCalls[0];
      assert.equal(call?.name, "agent__researcher");
      assert.equal(call?.result.ok, true);
      assert.match(JSON.stringify(call?.result.content), /notes\.md says: contents of notes\.md/);
      assert.equal(tools.write.calls.length, 0, "the child could not write");
      assert.equal(tools.read.calls.length, 1);
      const childOffered = provider.requests[1]?.toolNames ?? [];
      assert.deepEqual(childOffered, ["read_file"], "never more than it was given");
      const refused = provider.requests[2]?.messages.at(-1);
      assert.ok(refused?.role === "tool" && refused.result.error?.code === "denied");
      assert.deepEqual(
        result.usage,
        { inputTokens: 400, outputTokens: 35 },
        "the child's usage is the parent's too",
      );
      assert.equal(call?.result.metadata.depth, 1);
    } finally {
      await agent.close();
    }
  });

  it("tags the child's events with its depth and the parent's call", async () => {
    const { agent } = await parentAgent([
      delegate("Read a.md"),
      { tool_calls: [{ id: "c1", name: "read_file", arguments: { path: "a.md" } }] },
      { text: "a.md read." },
      { text: "Done." },
    ]);
    const seen: Array<[string, AgentEvents["tool-call-end"][0]["via"]]> = [];
    agent.on("tool-call-end", ({ call, via }) => seen.push([call.name, via]));
    try {
      await agent.run("Read a.md through the researcher");
      assert.deepEqual(seen, [
        ["read_file", { agent: "researcher", depth: 1, parentCallId: "p1" }],
        ["agent__researcher", undefined],
      ]);
    } finally {
      await agent.close();
    }
  });

  it("runs on the model it names (the parent's provider, withModel), or says it could not", async () => {
    const quick = subAgent({
      name: "quick",
      description: "Answers fast.",
      instructions: "Be quick.",
      model: "small-model",
    });
    const provider = new ScriptedProvider([
      { tool_calls: [{ id: "q1", name: "agent__quick", arguments: { prompt: "2+2?" } }] },
      { text: "4" },
      { text: "It is 4." },
    ]);
    const agent = await createAgent({ config: false, provider, plugins: [quick] });
    try {
      const result = await agent.run("Ask quick.");
      assert.deepEqual(
        provider.requests.map((request) => request.model),
        ["script", "small-model", "script"],
      );
      const metadata = result.toolCalls[0]!.result.metadata;
      assert.equal(metadata.model, "small-model");
      assert.equal(metadata.model_inherited, undefined);
    } finally {
      await agent.close();
    }

    // A provider with one model: the child runs on it, and the result says what was asked.
    const scripted = new ScriptedProvider([
      { tool_calls: [{ id: "q1", name: "agent__quick", arguments: { prompt: "2+2?" } }] },
      { text: "4" },
      { text: "It is 4." },
    ]);
    const single = {
      name: "single",
      model: "only-model",
      stream: (request: Parameters<ScriptedProvider["stream"]>[0]) => scripted.stream(request),
    };
    const fixed = await createAgent({ config: false, provider: single, plugins: [quick] });
    try {
      const result = await fixed.run("Ask quick.");
      const metadata = result.toolCalls[0]!.result.metadata;
      assert.equal(result.toolCalls[0]!.result.ok, true);
      assert.equal(metadata.model, "only-model");
      assert.equal(metadata.model_inherited, "small-model");
    } finally {
      await fixed.close();
    }
  });

  it("ends recursion at the depth limit with a clear result", async () => {
    const recursive = subAgent({
      name: "helper",
      description: "Helps.",
      instructions: "Delegate to helper.",
      maxDepth: 2,
    });
    const call = {
      tool_calls: [{ name: subAgentToolName("helper"), arguments: { prompt: "again" } }],
    };
    const provider = new ScriptedProvider([
      call,
      call,
      call,
      { text: "depth 2 gave up" },
      { text: "depth 1 done" },
      { text: "top done" },
    ]);
    const agent = await createAgent({ config: false, provider, plugins: [recursive] });
    try {
      const result = await agent.run("go");
      assert.equal(result.text, "top done");
      const deepest = provider.requests[3]?.messages.at(-1);
      assert.ok(deepest?.role === "tool");
      assert.equal(deepest.result.error?.code, "depth_limit");
      assert.match(
        deepest.result.error?.message ?? "",
        /agents may nest 2 deep, and this call is at depth 3/,
      );
    } finally {
      await agent.close();
    }
  });

  it("cancelling the parent cancels the child and its MCP call", { timeout: 20_000 }, async () => {
    const logs = await scratch();
    const provider = new ScriptedProvider([
      { tool_calls: [{ id: "p1", name: "agent__waiter", arguments: { prompt: "wait" } }] },
      { tool_calls: [{ id: "c1", name: "mcp__beh__hang", arguments: {} }] },
    ]);
    const controller = new AbortController();
    const parent = await createAgent({
      config: false,
      provider,
      policy: { mode: "bypass" },
      plugins: [
        mcp({ servers: { beh: stdioFixture("behaviours", { env: { FIXTURE_LOG: logs.log } }) } }),
        subAgent({
          name: "waiter",
          description: "Waits.",
          instructions: "Wait.",
          tools: ["mcp__beh__*"],
        }),
      ],
    });
    try {
      parent.on("tool-call-start", ({ call, via }) => {
        if (via && call.name === "mcp__beh__hang")
          setTimeout(() => controller.abort(new Error("stop")), 200);
      });
      const result = await parent.run("go", { signal: controller.signal });
      assert.equal(result.stopReason, "aborted");
      await eventually(
        async () => (await logs.lines()).some((line) => line.startsWith("cancelled hang")),
        5_000,
        "the server to see the cancellation",
      );
    } finally {
      await parent.close();
      await logs.cleanup();
    }
  });
});
