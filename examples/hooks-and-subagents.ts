// Hooks and a sub-agent, offline: a guard hook stops a dangerous command (the model reads
// why), and a read-only researcher sub-agent answers with only the tools it was given. Its
// tool calls reach the parent's listeners tagged with `via`.
import { createAgent, definePlugin, subAgent } from "@pseudoclaude/core";
import { createTestTool, InMemoryToolSource, ScriptedProvider } from "@pseudoclaude/testing";

const shell = createTestTool({
  name: "run_command",
  description: "Run a shell command.",
  safety: "side_effect",
  inputSchema: {
    type: "object",
    properties: { command: { type: "string" } },
    required: ["command"],
  },
  run: (args) => `ran: ${String(args.command)}`,
});
const reader = createTestTool({
  name: "read_file",
  description: "Read a file.",
  safety: "read_only",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  run: (args) => `${String(args.path)}: the release is on Friday`,
});

const agent = await createAgent({
  config: false,
  policy: { mode: "bypass" },
  hooks: {
    beforeToolCall: function noRm({ call }) {
      const command = String((call.arguments as { command?: unknown }).command ?? "");
      return /\brm\b/.test(command)
        ? { action: "deny", reason: "rm is not allowed here." }
        : undefined;
    },
  },
  plugins: [
    definePlugin({
      name: "tools",
      register: (context) =>
        void context.addToolSource(new InMemoryToolSource("tools", [shell, reader])),
    }),
    subAgent({
      name: "researcher",
      description: "Reads files and reports. Cannot run commands.",
      instructions: "Read what you are asked to, and report it.",
      tools: ["read_file"],
    }),
  ],
  provider: new ScriptedProvider([
    { tool_calls: [{ name: "run_command", arguments: { command: "rm -rf dist" } }] },
    {
      tool_calls: [
        { id: "p1", name: "agent__researcher", arguments: { prompt: "When is the release?" } },
      ],
    },
    // The researcher's turns: it is offered read_file only.
    {
      expect: { tools: ["read_file"] },
      tool_calls: [{ name: "read_file", arguments: { path: "NOTES.md" } }],
    },
    { text: "NOTES.md says the release is on Friday." },
    { text: "I did not delete dist (rm is blocked); the release is on Friday." },
  ]),
});
agent.on("tool-call-end", ({ record, via }) =>
  console.log(
    `${via ? `  [${via.agent}, depth ${via.depth}] ` : ""}${record.name}: ${record.result.ok ? "ok" : record.result.error.message}`,
  ),
);
const result = await agent.run("Clean dist, then tell me when the release is.");
console.log(result.text);
await agent.close();
if (shell.calls.length !== 0 || reader.calls.length !== 1) throw new Error("unexpected calls");
