// Tracing, offline: an OpenTelemetry SDK is registered, an agent delegates to a sub-agent,
// and the spans are printed as the tree a tracing backend would show - the run, each model
// request, each tool call, the sub-agent's run under the call that started it.
// #region register
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

// Any SDK set-up works (NodeSDK with an OTLP exporter in production); the agent only uses
// @opentelemetry/api, so it traces as soon as a provider is registered.
const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);

// #endregion

import { createAgent, definePlugin, subAgent } from "@pseudoclaude/core";
import { createTestTool, InMemoryToolSource, ScriptedProvider } from "@pseudoclaude/testing";

const reader = createTestTool({
  name: "read_file",
  description: "Read a file.",
  safety: "read_only",
  source: "files",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  run: (args) => `${String(args.path)}: the release is on Friday`,
});

// #region agent
const agent = await createAgent({
  config: false,
  name: "planner",
  // Prompts, answers, arguments and results stay out of spans unless you ask for them.
  tracing: { recordContent: false },
  plugins: [
    definePlugin({
      name: "files",
      register: (context) => void context.addToolSource(new InMemoryToolSource("files", [reader])),
    }),
    subAgent({
      name: "researcher",
      description: "Reads files and reports.",
      instructions: "Read what you are asked to, and report it.",
      tools: ["read_file"],
    }),
  ],
  provider: new ScriptedProvider([
    { tool_calls: [{ id: "p1", name: "agent__researcher", arguments: { prompt: "Release?" } }] },
    {
      tool_calls: [{ id: "r1", name: "read_file", arguments: { path: "NOTES.md" } }],
      usage: { input_tokens: 90, output_tokens: 12 },
    },
    { text: "Friday.", usage: { input_tokens: 130, output_tokens: 3 } },
    { text: "The release is on Friday." },
  ]),
});
await agent.run("When is the release?");
await agent.close();
// #endregion

// #region tree
function printTree(spans: readonly ReadableSpan[], parent: string | undefined, depth: number) {
  const children = spans
    .filter((span) => span.parentSpanContext?.spanId === parent)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  for (const span of children) {
    const facts = [
      span.attributes["gen_ai.usage.input_tokens"] !== undefined
        ? `${span.attributes["gen_ai.usage.input_tokens"]} in`
        : "",
      span.attributes["pseudoclaude.policy.verdict"] ?? "",
    ].filter(Boolean);
    console.log(
      `${"  ".repeat(depth)}${span.name}${facts.length ? `  (${facts.join(", ")})` : ""}`,
    );
    printTree(spans, span.spanContext().spanId, depth + 1);
  }
}
printTree(exporter.getFinishedSpans(), undefined, 0);
// #endregion

const names = exporter.getFinishedSpans().map((span) => span.name);
for (const expected of [
  "invoke_agent planner",
  "execute_tool agent__researcher",
  "invoke_agent researcher",
  "execute_tool read_file",
])
  if (!names.includes(expected)) {
    console.error(`missing span ${expected}: ${names.join(", ")}`);
    process.exit(1);
  }
