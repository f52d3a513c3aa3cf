// The agent and tools the provider contract suite runs a provider in, and how it reads what a
// provider streamed on its own.
import { type Agent, createAgent, definePlugin, type Provider } from "@pseudoclaude/core";
import type { ProviderEvent, ProviderRequest } from "@pseudoclaude/core/provider";
import { createTestTool, InMemoryToolSource, type TestTool } from "./test-tools.js";

/** The suite's tools: one whose name every API takes, one with a dot, which most refuse. */
export interface ContractTools {
  readonly forecast: TestTool;
  readonly search: TestTool;
}

export function contractTools(): ContractTools {
  return {
    forecast: createTestTool({
      name: "get_forecast",
      description: "Forecast for a city.",
      safety: "read_only",
      inputSchema: {
        type: "object",
        properties: { city: { type: "string", minLength: 1 } },
        required: ["city"],
        additionalProperties: false,
      },
      run: (args) => `Sunny in ${String(args.city)}, 21°C.`,
    }),
    search: createTestTool({
      name: "mcp__docs.v2__search",
      description: "Search the docs.",
      safety: "read_only",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string" } },
        required: ["query"],
      },
      run: (args) => `3 hits for ${String(args.query)}`,
    }),
  };
}

/** An agent on `provider` with `tools` and nothing from config files. */
export function contractAgent(
  provider: Provider,
  tools: ContractTools = contractTools(),
): Promise<Agent> {
  const plugin = definePlugin({
    name: "provider-contract-tools",
    register(context) {
      context.addToolSource(new InMemoryToolSource("memory", [tools.forecast, tools.search]));
    },
  });
  return createAgent({
    provider,
    plugins: [plugin],
    config: false,
    systemPrompt: "You are a test agent.",
  });
}

/** Run `use` with an agent on `provider` and `tools`, closed afterwards whatever happens. */
export async function withContractAgent(
  provider: Provider,
  use: (agent: Agent) => Promise<void>,
  tools: ContractTools = contractTools(),
): Promise<void> {
  const agent = await contractAgent(provider, tools);
  try {
    await use(agent);
  } finally {
    await agent.close();
  }
}

/** Everything a provider streams for one request. */
export async function collectEvents(
  provider: Provider,
  request: Partial<ProviderRequest> = {},
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream({ system: "", messages: [], tools: [], ...request }))
    events.push(event);
  return events;
}

/** What `promise` rejected with; fails when it fulfils. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected the promise to reject.");
}
