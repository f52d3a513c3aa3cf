// The agent both loop rows measure: a scripted model, no-op tools, bypass mode, no compaction;
// the provider's own time per turn kept apart, so a row can take it out of the loop's.
import { type Agent, createAgent, definePlugin, type Tool } from "@pseudoclaude/core";
import { InMemoryToolSource, ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";

export interface TimedLoop {
  agent: Agent;
  /** The provider's time for each model turn, in order (ms). */
  providerMs: number[];
  /** When each turn started (ms, `performance.now()`), in order. */
  starts: number[];
}

export async function timedLoop(steps: ScriptedStep[], tools: Tool[]): Promise<TimedLoop> {
  const scripted = new ScriptedProvider(steps);
  const providerMs: number[] = [];
  const provider = {
    name: scripted.name,
    model: scripted.model,
    async *stream(request: Parameters<ScriptedProvider["stream"]>[0]) {
      const start = performance.now();
      for await (const event of scripted.stream(request)) yield event;
      providerMs.push(performance.now() - start);
    },
  };
  const agent = await createAgent({
    config: false,
    policy: { mode: "bypass" },
    provider,
    maxTurns: steps.length,
    // The default manager would compact a long conversation: these rows measure the loop alone.
    contextWindow: 100_000_000,
    plugins: [
      definePlugin({
        name: "noop",
        register: (context) => void context.addToolSource(new InMemoryToolSource("noop", tools)),
      }),
    ],
  });
  const starts: number[] = [];
  agent.on("turn-start", () => starts.push(performance.now()));
  return { agent, providerMs, starts };
}
