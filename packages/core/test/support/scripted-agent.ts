import { type Agent, createAgent, definePlugin, type Tool } from "@pseudoclaude/core";
import { type ToolResultMessage } from "@pseudoclaude/core/provider";
import { InMemoryToolSource, ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";

/** A plugin that adds `source` to the agent's tools. */
export function sourcePlugin(source: InMemoryToolSource) {
  return definePlugin({
    name: `source-${source.id}`,
    register: (context) => void context.addToolSource(source),
  });
}

/** An agent on a scripted model with `tools` from an in-memory source. */
export async function agentWith(
  tools: Tool[],
  steps: ScriptedStep[],
  options: Parameters<typeof createAgent>[0] = {},
): Promise<{ agent: Agent; provider: ScriptedProvider; source: InMemoryToolSource }> {
  const provider = new ScriptedProvider(steps);
  const source = new InMemoryToolSource("memory", tools);
  const agent = await createAgent({
    config: false,
    provider,
    plugins: [sourcePlugin(source)],
    ...options,
  });
  return { agent, provider, source };
}

/** The tool results the model was sent in its `request`-th request. */
export function toolMessages(provider: ScriptedProvider, request: number): ToolResultMessage[] {
  return provider.requests[request]!.messages.filter(
    (m): m is ToolResultMessage => m.role === "tool",
  );
}
