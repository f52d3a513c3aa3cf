// Tracing through @opentelemetry/api: spans by the GenAI semantic conventions for a run, each
// model request and each tool call, captured with the SDK's in-memory exporter; contents only
// when asked; a failed request and a hook's rewrite on their spans.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { createAgent, definePlugin } from "@pseudoclaude/core";
import { InMemoryToolSource, ScriptedProvider } from "@pseudoclaude/testing";
import { fileTools } from "./support/file-tools.js";
import { readThenAnswer, tracedAgent } from "./support/traced-agent.js";

const CORE_VERSION = (
  JSON.parse(
    readFileSync(new URL("../../packages/core/package.json", import.meta.url), "utf8"),
  ) as { version: string }
).version;

describe("tracing", () => {
  it("a run is one invoke_agent span with a chat span per request and an execute_tool span per call", async () => {
    const { agent, capture, read } = await tracedAgent(readThenAnswer);
    try {
      const result = await agent.run("What do the notes say?");
      assert.equal(result.text, "The notes say hello.");

      const run = capture.one("invoke_agent pseudoclaude");
      assert.equal(run.kind, SpanKind.INTERNAL);
      assert.equal(run.parentSpanContext, undefined, "the run is the root here");
      assert.equal(run.instrumentationScope.name, "@pseudoclaude/core");
      assert.equal(run.instrumentationScope.version, CORE_VERSION, "the version core ships with");
      assert.deepEqual(
        {
          operation: run.attributes["gen_ai.operation.name"],
          agent: run.attributes["gen_ai.agent.name"],
          provider: run.attributes["gen_ai.provider.name"],
          model: run.attributes["gen_ai.request.model"],
          input: run.attributes["gen_ai.usage.input_tokens"],
          output: run.attributes["gen_ai.usage.output_tokens"],
          turns: run.attributes["pseudoclaude.run.turns"],
          stop: run.attributes["pseudoclaude.run.stop_reason"],
          calls: run.attributes["pseudoclaude.run.tool_calls"],
          depth: run.attributes["pseudoclaude.agent.depth"],
        },
        {
          operation: "invoke_agent",
          agent: "pseudoclaude",
          provider: "scripted",
          model: "script",
          input: 320,
          output: 20,
          turns: 2,
          stop: "end_turn",
          calls: 2,
          depth: 0,
        },
      );

      const chats = capture.named("chat script");
      assert.equal(chats.length, 2);
      for (const chat of chats) {
        assert.equal(chat.kind, SpanKind.CLIENT);
        assert.equal(capture.parentOf(chat), run);
        assert.equal(chat.attributes["gen_ai.operation.name"], "chat");
        assert.equal(chat.attributes["gen_ai.request.model"], "script");
      }
      const [first, second] = [...chats].sort(
        (a, b) =>
          Number(a.attributes["pseudoclaude.turn"]) - Number(b.attributes["pseudoclaude.turn"]),
      );
      assert.equal(first!.attributes["gen_ai.usage.input_tokens"], 120);
      assert.deepEqual(first!.attributes["gen_ai.response.finish_reasons"], ["tool_use"]);
      assert.equal(second!.attributes["gen_ai.usage.output_tokens"], 8);
      assert.deepEqual(second!.attributes["gen_ai.response.finish_reasons"], ["end_turn"]);

      const readSpan = capture.one("execute_tool read_file");
      assert.equal(capture.parentOf(readSpan), run);
      assert.equal(readSpan.kind, SpanKind.INTERNAL);
      assert.deepEqual(
        {
          operation: readSpan.attributes["gen_ai.operation.name"],
          tool: readSpan.attributes["gen_ai.tool.name"],
          id: readSpan.attributes["gen_ai.tool.call.id"],
          description: readSpan.attributes["gen_ai.tool.description"],
          source: readSpan.attributes["pseudoclaude.tool.source"],
          safety: readSpan.attributes["pseudoclaude.tool.safety"],
          verdict: readSpan.attributes["pseudoclaude.policy.verdict"],
          basis: readSpan.attributes["pseudoclaude.policy.basis"],
          timeout: readSpan.attributes["pseudoclaude.tool.timeout_ms"],
          timeoutSource: readSpan.attributes["pseudoclaude.tool.timeout_source"],
        },
        {
          operation: "execute_tool",
          tool: "read_file",
          id: "r1",
          description: "Read a file.",
          source: "files",
          safety: "read_only",
          verdict: "allow",
          basis: "safety",
          timeout: 120_000,
          timeoutSource: "default",
        },
      );
      assert.equal(readSpan.status.code, SpanStatusCode.UNSET);
      assert.ok(readSpan.events.some((event) => event.name === "pseudoclaude.tool.execute"));

      // The tool was handed the trace: W3C trace context of its own span.
      const { traceId, spanId } = readSpan.spanContext();
      const handed = read.calls[0]!.context.trace;
      assert.ok(handed, "the tool gets the call's trace");
      assert.equal(handed.headers.traceparent, `00-${traceId}-${spanId}-01`);

      // Denied by the policy: an error span saying by which rule, the tool never ran.
      const writeSpan = capture.one("execute_tool write_file");
      assert.equal(writeSpan.status.code, SpanStatusCode.ERROR);
      assert.equal(writeSpan.attributes["error.type"], "denied");
      assert.equal(writeSpan.attributes["pseudoclaude.policy.verdict"], "deny");
      assert.equal(writeSpan.attributes["pseudoclaude.policy.rule"], "code:deny(write_file)");
      assert.ok(!writeSpan.events.some((event) => event.name === "pseudoclaude.tool.execute"));

      // One trace for all of it.
      assert.ok(
        capture.spans().every((span) => span.spanContext().traceId === run.spanContext().traceId),
      );
    } finally {
      await agent.close();
    }
  });

  it("records no prompt, answer, argument or result unless asked to", async () => {
    const off = await tracedAgent(readThenAnswer);
    try {
      await off.agent.run("secret prompt");
      const attributes = off.capture.spans().flatMap((span) => Object.keys(span.attributes));
      for (const key of [
        "gen_ai.input.messages",
        "gen_ai.output.messages",
        "gen_ai.system_instructions",
        "gen_ai.tool.call.arguments",
        "gen_ai.tool.call.result",
      ])
        assert.ok(!attributes.includes(key), `${key} is not recorded by default`);
      const values = JSON.stringify(off.capture.spans().map((span) => span.attributes));
      assert.ok(!values.includes("secret prompt"));
    } finally {
      await off.agent.close();
    }

    const on = await tracedAgent(readThenAnswer, { recordContent: true });
    try {
      await on.agent.run("secret prompt");
      const read = on.capture.one("execute_tool read_file");
      assert.equal(read.attributes["gen_ai.tool.call.arguments"], '{"path":"notes.md"}');
      assert.equal(read.attributes["gen_ai.tool.call.result"], "contents of notes.md");
      const chats = on.capture.named("chat script");
      const last = chats.find((chat) => chat.attributes["pseudoclaude.turn"] === 2)!;
      const input = JSON.parse(String(last.attributes["gen_ai.input.messages"]));
      assert.deepEqual(input[0], {
        role: "user",
        parts: [{ type: "text", content: "secret prompt" }],
      });
      assert.deepEqual(input[1].parts[0], {
        type: "tool_call",
        id: "r1",
        name: "read_file",
        arguments: { path: "notes.md" },
      });
      assert.equal(input[2].parts[0].type, "tool_call_response");
      assert.deepEqual(JSON.parse(String(last.attributes["gen_ai.output.messages"])), [
        { role: "assistant", parts: [{ type: "text", content: "The notes say hello." }] },
      ]);
    } finally {
      await on.agent.close();
    }
  });

  it("a failed model request and a hook's rewrite are on their spans", async () => {
    const { agent, capture } = await tracedAgent(
      [
        { tool_calls: [{ id: "r1", name: "read_file", arguments: { path: "a.md" } }] },
        { error: "model overloaded" },
      ],
      {},
    );
    const hooked = await createAgent({
      config: false,
      provider: new ScriptedProvider([
        { tool_calls: [{ id: "r1", name: "read_file", arguments: { path: "a.md" } }] },
        { text: "done" },
      ]),
      tracing: { tracerProvider: capture.tracerProvider },
      hooks: {
        beforeToolCall: function redirect() {
          return { action: "rewrite" as const, arguments: { path: "b.md" } };
        },
      },
      plugins: [
        definePlugin({
          name: "files",
          register: (context) =>
            void context.addToolSource(new InMemoryToolSource("files", [fileTools("files").read])),
        }),
      ],
    });
    try {
      await assert.rejects(agent.run("go"), /model overloaded/);
      const failedRun = capture.one("invoke_agent pseudoclaude");
      assert.equal(failedRun.status.code, SpanStatusCode.ERROR);
      // error.type is the error's code: here the scripted provider's own.
      assert.equal(failedRun.attributes["error.type"], "scripted_error");
      const failedChat = capture
        .named("chat script")
        .find((chat) => chat.attributes["pseudoclaude.turn"] === 2)!;
      assert.equal(failedChat.status.code, SpanStatusCode.ERROR);
      assert.equal(failedChat.attributes["error.type"], "scripted_error");
      assert.ok(failedChat.events.some((event) => event.name === "exception"));

      await hooked.run("go");
      const rewritten = capture
        .named("execute_tool read_file")
        .find((span) => span.attributes["pseudoclaude.hooks"] !== undefined)!;
      assert.deepEqual(rewritten.attributes["pseudoclaude.hooks"], [
        "rewrite by code:redirect (beforeToolCall)",
      ]);
    } finally {
      await agent.close();
      await hooked.close();
    }
  });
});
