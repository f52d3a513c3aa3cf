import type Anthropic from "@anthropic-ai/sdk";
import { ModelError } from "@pseudoclaude/core";
import type { ToolNameMap } from "@pseudoclaude/core/provider";
import { type ProviderEvent, type ProviderUsage } from "@pseudoclaude/core/provider";
import { toStopReason } from "./stop-reason.js";

type StreamEvent = Anthropic.RawMessageStreamEvent;

/** A thinking block as the API wants it back: text with its signature, or redacted data. */
export type ThinkingBlock =
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string };

interface ToolBlock {
  id: string;
  name: string;
  /** `input` of `content_block_start`, used when no JSON delta follows. */
  initial: unknown;
  json: string;
}

/**
 * Turn the raw Messages stream into kernel events: text as it arrives, each tool call once its
 * block closes (its JSON arrives in pieces), then usage and the stop reason. A stream that
 * ends without `message_stop` was cut off and fails instead of passing for a short answer.
 */
export async function* translateStream(
  events: AsyncIterable<StreamEvent>,
  names: ToolNameMap,
  signal: AbortSignal | undefined,
): AsyncGenerator<ProviderEvent> {
  const tools = new Map<number, ToolBlock>();
  // Signed thinking blocks must go back to the API unchanged with the tool results.
  const thinking = new Map<number, ThinkingBlock>();
  const finished: ThinkingBlock[] = [];
  const usage: ProviderUsage = {};
  let stopReason: string | null | undefined;
  for await (const event of events) {
    switch (event.type) {
      case "message_start":
        readUsage(usage, event.message.usage);
        break;
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "text" && block.text) yield { type: "text-delta", text: block.text };
        if (block.type === "thinking") {
          thinking.set(event.index, {
            type: "thinking",
            thinking: block.thinking ?? "",
            signature: "",
          });
          if (block.thinking) yield { type: "reasoning-delta", text: block.thinking };
        }
        if (block.type === "redacted_thinking") {
          finished.push({ type: "redacted_thinking", data: block.data });
        }
        if (block.type === "tool_use") {
          tools.set(event.index, {
            id: block.id,
            name: block.name,
            initial: block.input,
            json: "",
          });
        }
        break;
      }
      case "content_block_delta":
        if (event.delta.type === "text_delta") {
          yield { type: "text-delta", text: event.delta.text };
        } else if (event.delta.type === "thinking_delta") {
          const block = thinking.get(event.index);
          if (block?.type === "thinking") block.thinking += event.delta.thinking;
          yield { type: "reasoning-delta", text: event.delta.thinking };
        } else if (event.delta.type === "signature_delta") {
          const block = thinking.get(event.index);
          if (block?.type === "thinking") block.signature += event.delta.signature;
        } else if (event.delta.type === "input_json_delta") {
          const tool = tools.get(event.index);
          if (tool) tool.json += event.delta.partial_json;
        }
        break;
      case "content_block_stop": {
        const closed = thinking.get(event.index);
        if (closed) {
          thinking.delete(event.index);
          finished.push(closed);
        }
        const tool = tools.get(event.index);
        if (!tool) break;
        tools.delete(event.index);
        yield {
          type: "tool-call",
          call: { id: tool.id, name: names.fromWire(tool.name), arguments: parseInput(tool) },
        };
        break;
      }
      case "message_delta":
        readUsage(usage, event.usage);
        stopReason = event.delta.stop_reason;
        break;
      case "message_stop":
        if (finished.length > 0)
          yield { type: "provider-data", data: { anthropic: { thinking: finished } } };
        yield { type: "usage", usage };
        yield { type: "stop", reason: toStopReason(stopReason) };
        return;
    }
  }
  // The SDK ends the iteration quietly when the caller aborts; that is not a broken stream.
  if (signal?.aborted) return;
  throw new ModelError(
    "stream_incomplete",
    "The Anthropic stream ended before message_stop: the answer is incomplete.",
    { details: { provider: "anthropic" } },
  );
}

/**
 * `message_start` carries the input side, `message_delta` cumulative totals: the latest
 * value of each field wins, so the turn reports each number once.
 */
function readUsage(
  usage: ProviderUsage,
  wire: {
    input_tokens?: number | null;
    output_tokens?: number | null;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  },
): void {
  if (typeof wire.input_tokens === "number") usage.inputTokens = wire.input_tokens;
  if (typeof wire.output_tokens === "number") usage.outputTokens = wire.output_tokens;
  if (typeof wire.cache_read_input_tokens === "number")
    usage.cacheReadTokens = wire.cache_read_input_tokens;
  if (typeof wire.cache_creation_input_tokens === "number")
    usage.cacheWriteTokens = wire.cache_creation_input_tokens;
}

/** Broken JSON stays the raw string, so the registry answers `invalid_arguments`. */
function parseInput(tool: ToolBlock): unknown {
  if (tool.json.trim() === "") return tool.initial ?? {};
  try {
    return JSON.parse(tool.json);
  } catch {
    return tool.json;
  }
}
