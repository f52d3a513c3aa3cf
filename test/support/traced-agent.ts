// An agent traced into an in-memory capture, with a read_file tool that runs and a write_file
// tool its policy denies, and the script most tracing tests play: one turn calling both tools,
// then an answer, with token usage on each model response.
import { createAgent, definePlugin, type Plugin } from "@pseudoclaude/core";
import { InMemoryToolSource, ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";
import { fileTools } from "./file-tools.js";
import { captureTraces } from "./trace-capture.js";

export async function tracedAgent(
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

export const readThenAnswer: ScriptedStep[] = [
  {
    tool_calls: [
      { id: "r1", name: "read_file", arguments: { path: "notes.md" } },
      { id: "w1", name: "write_file", arguments: { path: "notes.md" } },
    ],
    usage: { input_tokens: 120, output_tokens: 12 },
  },
  { text: "The notes say hello.", usage: { input_tokens: 200, output_tokens: 8 } },
];
