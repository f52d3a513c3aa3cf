// A complete tool-source plugin whose tools change at run time: `make_counter` adds a tool
// `counter_<name>` to the registry while the agent runs (a delta change pushed by the source),
// and the scripted model uses it on its next turn. The ToolSource contract written out by
// hand: id, start, tools, onDidChange, status, close.
import {
  createAgent,
  definePlugin,
  defineTool,
  type Tool,
  type ToolSource,
} from "@pseudoclaude/core";
import {
  type Disposable,
  type ToolChange,
  type ToolSourceStatus,
  toDisposable,
} from "@pseudoclaude/core/plugin";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { EventEmitter } from "eventemitter3";
import { z } from "zod";

class CounterSource implements ToolSource {
  readonly id = "counters";
  private readonly events = new EventEmitter<{ change: [ToolChange] }>();
  private readonly current = new Map<string, Tool>();
  private state: ToolSourceStatus["state"] = "idle";

  constructor() {
    const maker = defineTool({
      name: "make_counter",
      description: "Create a counter; it becomes a tool counter_<name> that counts each call.",
      input: z.object({ name: z.string().regex(/^[a-z]+$/) }),
      safety: "read_only",
      source: this.id,
      execute: ({ name }) => {
        this.add(counterTool(name, this.id));
        return `counter_${name} is ready.`;
      },
    });
    this.current.set(maker.definition.name, maker);
  }

  async start(): Promise<void> {
    this.state = "ready";
  }

  tools(): readonly Tool[] {
    return [...this.current.values()];
  }

  onDidChange(listener: (change: ToolChange) => void): Disposable {
    this.events.on("change", listener);
    return toDisposable(() => this.events.off("change", listener));
  }

  status(): ToolSourceStatus {
    return { state: this.state, stats: { tools: this.current.size } };
  }

  async close(): Promise<void> {
    this.state = "closed";
    this.events.removeAllListeners();
  }

  /** Sources push, the registry owns state: announce just the new tool. */
  private add(tool: Tool): void {
    this.current.set(tool.definition.name, tool);
    this.events.emit("change", { kind: "delta", upsert: [tool] });
  }
}

function counterTool(name: string, source: string): Tool {
  let count = 0;
  return defineTool({
    name: `counter_${name}`,
    description: `Count one more ${name} and say how many so far.`,
    input: z.object({}),
    safety: "read_only",
    source,
    execute: () => `${name}: ${++count}`,
  });
}

export const counters = () =>
  definePlugin({
    name: "counters",
    register: (context) => void context.addToolSource(new CounterSource()),
  });

const agent = await createAgent({
  config: false,
  plugins: [counters()],
  provider: new ScriptedProvider([
    { tool_calls: [{ name: "make_counter", arguments: { name: "sheep" } }] },
    {
      expect: { tools: ["counter_sheep"] },
      tool_calls: [
        { name: "counter_sheep", arguments: {} },
        { name: "counter_sheep", arguments: {} },
      ],
    },
    { text: "Two sheep counted." },
  ]),
});
agent.registry.on("tool-added", ({ definition }) => console.log(`registry: + ${definition.name}`));
agent.on("tool-call-end", ({ record }) =>
  console.log(
    `${record.name} -> ${record.result.content[0]?.type === "text" ? record.result.content[0].text : ""}`,
  ),
);
const result = await agent.run("Make a sheep counter and count two sheep.");
console.log(result.text);
await agent.close();
if (!result.toolCalls.every((call) => call.result.ok) || result.toolCalls.length !== 3)
  process.exit(1);
