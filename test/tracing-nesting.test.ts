// Where an agent's spans hang: a sub-agent's run under the parent's call, and, with a context
// manager, runs and direct tool calls under the caller's own span.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { createAgent, definePlugin, subAgent } from "@pseudoclaude/core";
import { createTestTool, InMemoryToolSource, ScriptedProvider } from "@pseudoclaude/testing";
import { captureTraces } from "./support/trace-capture.js";
import { tracedAgent } from "./support/traced-agent.js";

describe("tracing", () => {
  it("a sub-agent's run is a child of the parent's call, in the same trace, with its depth", async () => {
    const { agent, capture } = await tracedAgent(
      [
        {
          tool_calls: [{ id: "p1", name: "agent__reader", arguments: { prompt: "Read notes.md" } }],
        },
        { tool_calls: [{ id: "c1", name: "read_file", arguments: { path: "notes.md" } }] },
        { text: "It says hello." },
        { text: "The reader says: hello." },
      ],
      {
        extra: [
          subAgent({
            name: "reader",
            description: "Reads files.",
            instructions: "Read.",
            tools: ["read_file"],
          }),
        ],
      },
    );
    try {
      await agent.run("Delegate the reading.");
      const parentRun = capture.one("invoke_agent pseudoclaude");
      const delegation = capture.one("execute_tool agent__reader");
      const childRun = capture.one("invoke_agent reader");
      const childRead = capture.one("execute_tool read_file");
      assert.equal(capture.parentOf(delegation), parentRun);
      assert.equal(capture.parentOf(childRun), delegation, "the child run hangs under the call");
      assert.equal(capture.parentOf(childRead), childRun);
      assert.equal(childRun.attributes["pseudoclaude.agent.depth"], 1);
      assert.equal(childRead.attributes["pseudoclaude.agent.depth"], 1);
      assert.equal(delegation.attributes["pseudoclaude.agent.depth"], 0);
      const childChats = capture
        .named("chat script")
        .filter((chat) => capture.parentOf(chat) === childRun);
      assert.equal(childChats.length, 2);
      const traceIds = new Set(capture.spans().map((span) => span.spanContext().traceId));
      assert.equal(traceIds.size, 1);
    } finally {
      await agent.close();
    }
  });

  it("with a context manager: runs and callTool nest under the caller's span, tools see their own", async () => {
    const contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
    const seen: Array<string | undefined> = [];
    const probe = createTestTool({
      name: "probe",
      safety: "read_only",
      run: () => {
        seen.push(trace.getActiveSpan()?.spanContext().spanId);
        return "ok";
      },
    });
    const capture = captureTraces();
    const agent = await createAgent({
      config: false,
      provider: new ScriptedProvider([
        { tool_calls: [{ id: "q1", name: "probe", arguments: {} }] },
        { text: "done" },
      ]),
      tracing: { tracerProvider: capture.tracerProvider },
      plugins: [
        definePlugin({
          name: "probe",
          register: (ctx) => void ctx.addToolSource(new InMemoryToolSource("probe", [probe])),
        }),
      ],
    });
    try {
      const app = capture.tracerProvider.getTracer("app");
      await app.startActiveSpan("handle request", async (request) => {
        await agent.run("probe it");
        const outcome = await agent.callTool("probe", {});
        assert.equal(outcome.result.ok, true);
        request.end();
      });
      const request = capture.one("handle request");
      const run = capture.one("invoke_agent pseudoclaude");
      assert.equal(capture.parentOf(run), request);
      const [inRun, direct] = capture
        .named("execute_tool probe")
        .sort(
          (a, b) =>
            Number(b.attributes["pseudoclaude.turn"]) - Number(a.attributes["pseudoclaude.turn"]),
        );
      assert.equal(capture.parentOf(inRun!), run);
      assert.equal(capture.parentOf(direct!), request, "callTool hangs under the caller's span");
      assert.equal(direct!.attributes["pseudoclaude.turn"], 0);
      // Code inside a tool sees the call's span as the active one.
      assert.deepEqual(seen, [inRun!.spanContext().spanId, direct!.spanContext().spanId]);
    } finally {
      await agent.close();
      context.disable();
    }
  });
});
