// Agents for provider tests: in-memory tools (one of them with a name the model APIs refuse),
// no config files, and a collector for what a provider streams on its own.
import {
  type Agent,
  type CreateAgentOptions,
  createAgent,
  definePlugin,
  type Provider,
  type ToolResult,
  toolFailure,
  toolSuccess,
} from "@pseudoclaude/core";
import { type ProviderEvent, type ProviderRequest } from "@pseudoclaude/core/provider";
import { createTestTool, InMemoryToolSource, type TestTool } from "@pseudoclaude/testing";

/** A tiny PNG (1x1), base64, as tools return images. */
export const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** The tools every provider test offers. */
export function providerTestTools(): Record<string, TestTool> {
  return {
    forecast: createTestTool({
      name: "get_forecast",
      description: "Forecast for a city.",
      safety: "read_only",
      inputSchema: {
        type: "object",
        properties: {
          city: { type: "string", minLength: 1 },
          units: { type: "string", enum: ["C", "F"] },
        },
        required: ["city"],
        additionalProperties: false,
      },
      run: (args) => `Sunny in ${String(args.city)}, 21°C.`,
    }),
    // Dots are not allowed in API tool names: the provider must map this one both ways.
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
    chart: createTestTool({
      name: "render_chart",
      description: "Render a chart as an image.",
      safety: "read_only",
      inputSchema: { type: "object", properties: {} },
      run: (): ToolResult =>
        toolSuccess([
          { type: "text", text: "Chart rendered." },
          { type: "image", data: PNG_1X1, mimeType: "image/png" },
          { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
        ]),
    }),
    broken: createTestTool({
      name: "flaky",
      description: "Always fails.",
      safety: "read_only",
      inputSchema: { type: "object", properties: {} },
      run: () => toolFailure("tool_error", "The flaky tool failed on purpose."),
    }),
  };
}

/** An agent with the provider test tools and nothing from config files. */
export async function providerAgent(
  provider: Provider,
  tools = providerTestTools(),
  options: Pick<CreateAgentOptions, "session"> = {},
): Promise<Agent> {
  const plugin = definePlugin({
    name: "provider-test-tools",
    register(context) {
      context.addToolSource(new InMemoryToolSource("memory", Object.values(tools)));
    },
  });
  return createAgent({
    provider,
    plugins: [plugin],
    config: false,
    systemPrompt: "You are a test agent.",
    ...options,
  });
}

/** Everything a provider streams for one request. */
export async function collect(
  provider: Provider,
  request: Partial<ProviderRequest> = {},
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream({ system: "", messages: [], tools: [], ...request })) {
    events.push(event);
  }
  return events;
}

/** The error details the provider tests read. */
export type ProviderTestError = Error & { code?: string; details?: Record<string, unknown> };

/** The assertion helper for a rejected promise: the error, to inspect. */
export async function rejection(promise: Promise<unknown>): Promise<ProviderTestError> {
  try {
    await promise;
  } catch (error) {
    return error as ProviderTestError;
  }
  throw new Error("Expected the promise to reject.");
}
