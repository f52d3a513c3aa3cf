import type { Message } from "../contracts/message.js";
import type {
  Provider,
  ProviderToolSearch,
  ProviderUsage,
  StopReason,
} from "../contracts/provider.js";
import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import { errorMessage, ModelError, PseudoClaudeError } from "../errors.js";
import type { OutputFormat } from "../output/output-schema.js";

export interface ModelTurn {
  text: string;
  reasoning: string;
  providerData?: Record<string, unknown>;
  toolCalls: ToolCall[];
  /** What the provider's own tool search found this turn (registry names). */
  found?: Array<{ query: string; names: string[] }>;
  stopReason: StopReason | undefined;
  usage: ProviderUsage;
}

/** Stream one model answer, forwarding text deltas; give every tool call a unique id. */
export async function runModelTurn(
  provider: Provider,
  request: {
    system: string;
    messages: readonly Message[];
    tools: readonly ToolDefinition[];
    toolSearch?: ProviderToolSearch;
    signal: AbortSignal;
    output?: OutputFormat;
  },
  turn: number,
  onText: (text: string) => void,
  onReasoning: (text: string) => void = () => {},
  onToolInput: (piece: { id: string; name: string; delta: string }) => void = () => {},
): Promise<ModelTurn> {
  const result: ModelTurn = {
    text: "",
    reasoning: "",
    toolCalls: [],
    stopReason: undefined,
    usage: {},
  };
  const ids = new Set<string>();
  try {
    for await (const event of provider.stream(request)) {
      if (request.signal.aborted) break;
      switch (event.type) {
        case "text-delta":
          result.text += event.text;
          onText(event.text);
          break;
        case "tool-call": {
          let id = event.call.id;
          // Ids link results to calls; a provider that repeats or omits them must not merge two.
          if (!id || ids.has(id)) id = `call_${turn}_${result.toolCalls.length + 1}`;
          ids.add(id);
          result.toolCalls.push({ ...event.call, id });
          break;
        }
        case "tool-input-delta":
          onToolInput({ id: event.id, name: event.name, delta: event.delta });
          break;
        case "tools-found":
          result.found = [...(result.found ?? []), { query: event.query, names: [...event.names] }];
          break;
        case "reasoning-delta":
          result.reasoning += event.text;
          onReasoning(event.text);
          break;
        case "provider-data":
          result.providerData = { ...result.providerData, ...event.data };
          break;
        case "usage":
          addUsage(result.usage, event.usage);
          break;
        case "stop":
          result.stopReason = event.reason;
          break;
      }
    }
  } catch (error) {
    if (request.signal.aborted) return result;
    if (PseudoClaudeError.is(error)) throw error;
    throw new ModelError(
      "provider_failed",
      `Provider "${provider.name}" failed: ${errorMessage(error)}`,
      {
        cause: error,
        details: { provider: provider.name, turn },
      },
    );
  }
  return result;
}

export function addUsage(total: ProviderUsage, add: ProviderUsage): void {
  for (const key of [
    "inputTokens",
    "outputTokens",
    "cacheReadTokens",
    "cacheWriteTokens",
  ] as const) {
    const value = add[key];
    if (typeof value === "number") total[key] = (total[key] ?? 0) + value;
  }
}
