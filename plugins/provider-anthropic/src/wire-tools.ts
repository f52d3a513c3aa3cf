import type Anthropic from "@anthropic-ai/sdk";
import type { ToolDefinition } from "@pseudoclaude/core";
import { type JsonSchema, objectInputSchema } from "@pseudoclaude/core/plugin";
import { createToolNameMap, type ToolNameMap } from "@pseudoclaude/core/provider";

/** The tools of one request as the Messages API takes them, with the name map to read calls. */
export interface WireTools {
  tools: Anthropic.Tool[];
  names: ToolNameMap;
}

/**
 * Project the offered tools. The kernel hands the same array while the registry is unchanged,
 * so the projection is cached per array instead of rebuilt every turn.
 */
export class AnthropicToolProjector {
  private readonly cache = new WeakMap<readonly ToolDefinition[], WireTools>();

  constructor(private readonly promptCaching: boolean) {}

  project(tools: readonly ToolDefinition[]): WireTools {
    const cached = this.cache.get(tools);
    if (cached) return cached;
    const names = createToolNameMap(tools.map((tool) => tool.name));
    const wire: Anthropic.Tool[] = tools.map((tool) => ({
      name: names.toWire(tool.name),
      description: tool.description,
      input_schema: toInputSchema(tool.inputSchema),
    }));
    const last = wire.at(-1);
    // The tool list is the head of the prompt: a breakpoint after it caches every tool.
    if (last && this.promptCaching) last.cache_control = { type: "ephemeral" };
    const projected = { tools: wire, names };
    this.cache.set(tools, projected);
    return projected;
  }
}

/**
 * `input_schema` must be an object schema, which the registry already made every tool's
 * (`objectInputSchema` is a no-op then; it only matters for definitions that never went
 * through a registry). A copy is sent: the registry keeps validating with the tool's own.
 */
export function toInputSchema(schema: JsonSchema): Anthropic.Tool.InputSchema {
  return structuredClone(objectInputSchema(schema)) as Anthropic.Tool.InputSchema;
}
