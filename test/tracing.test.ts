// Tracing through @opentelemetry/api: spans by the GenAI semantic conventions for a run, each
// model request and each tool call, captured with the SDK's in-memory exporter; parent and
// child across sub-agents; contents only when asked; nothing at all without a tracer provider.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { createAgent, definePlugin, type Plugin, subAgent } from "@pseudoclaude/core";
import {
  createTestTool,
  InMemoryToolSource,
  ScriptedProvider,
  type ScriptedStep,
} from "@pseudoclaude/testing";
import { fileTools } from "./support/file-tools.js";
import { captureTraces } from "./support/trace-capture.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

async function tracedAgent(
  steps: ScriptedStep[],
  options: {
    traced?: boolean;
    recordContent?: boolean;
    extra?: Plugin[];
  } = {},
) {
  const capture = captureTraces();
  const { read, write } = fileTools("files");
  const agent = await createAgent({
    config: false,
    provider: new ScriptedProvider(steps),
    policy: { deny: ["write_file"] },
    ...(options.traced === false
      ? {}
      : {
          tracing: {
            tracerProvider: capture.tracerProvider,
            ...(options.recordContent !== undefined
              ? { recordContent: options.recordContent }
              : {}),
          },
        }),
    plugins: [
      definePlugin({
        name: "files",
        register: (context) =>
          void context.addToolSource(new InMemoryToolSource("files", [read, write])),
      }),
      ...(options.extra ?? []),
    ],
  });
  return { agent, capture, read, write };
}

const readThenAnswer: ScriptedStep[] = [
  {
    tool_calls: [
      { id: "r1", name: "read_file", arguments: { path: "notes.md" } },
      { id: "w1", name: "write_file", arguments: { path: "notes.md" } },
    ],
    usage: { input_tokens: 120, output_tokens: 12 },
  },
  { text: "The notes say hello.", usage: { input_tokens: 200, output_tokens: 8 } },
];

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

  it("without a tracer provider nothing is recorded and tools get no trace", async () => {
    const { agent, capture, read } = await tracedAgent(readThenAnswer, { traced: false });
    try {
      await agent.run("What do the notes say?");
      assert.equal(read.calls.length, 1);
      assert.equal(read.calls[0]!.context.trace, undefined);
      assert.equal(capture.spans().length, 0);
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

  it("a tracer provider registered globally after the agent was made still gets its runs", async () => {
    const capture = captureTraces();
    const agent = await createAgent({
      config: false,
      provider: new ScriptedProvider([{ text: "before" }, { text: "after" }]),
    });
    try {
      await agent.run("untraced");
      assert.equal(capture.spans().length, 0);
      assert.equal(trace.setGlobalTracerProvider(capture.tracerProvider), true);
      await agent.run("traced");
      assert.equal(capture.named("invoke_agent pseudoclaude").length, 1);
      assert.equal(capture.named("chat script").length, 1);
    } finally {
      trace.disable();
      await agent.close();
    }
  });

  it("an agent that never traces never loads the OpenTelemetry API", () => {
    // A fresh process: this one loaded the API for the tests above.
    const script = `
      import { createRequire } from "node:module";
      import { createAgent } from "@pseudoclaude/core";
      import { ScriptedProvider } from "@pseudoclaude/testing";
      const agent = await createAgent({ config: false, provider: new ScriptedProvider([{ text: "hi" }]) });
      await agent.run("hello");
      await agent.callTool("nothing", {});
      await agent.close();
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(loaded.filter((file) => file.includes("@opentelemetry"))));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)!), []);
  });
});
