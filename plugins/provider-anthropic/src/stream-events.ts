import type Anthropic from "@anthropic-ai/sdk";
import { ModelError } from "@pseudoclaude/core";
import type { ToolNameMap } from "@pseudoclaude/core/provider";
import { type ProviderEvent, type ProviderUsage } from "@pseudoclaude/core/provider";
import { ReceivedContent } from "./received-content.js";
import { searchQuery } from "./server-tool-search.js";
import { toStopReason } from "./stop-reason.js";

type StreamEvent = Anthropic.RawMessageStreamEvent;

/** A thinking block as the API wants it back: text with its signature, or redacted data. */
export type ThinkingBlock =
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string };

/**
 * Turn the raw Messages stream into kernel events: text as it arrives, a tool call's JSON
 * pieces as they arrive (for display), each tool call once its block closes, what the API's own tool search found once its
 * result block closes, then usage and the stop reason. A stream that ends without
 * `message_stop` was cut off and fails instead of passing for a short answer.
 */
export async function* translateStream(
  events: AsyncIterable<StreamEvent>,
  names: ToolNameMap,
  signal: AbortSignal | undefined,
): AsyncGenerator<ProviderEvent> {
  const content = new ReceivedContent();
  const usage: ProviderUsage = {};
  let stopReason: string | null | undefined;
  // The tool calls whose arguments are streaming, by block index: each piece is passed on.
  const calling = new Map<number, { id: string; name: string }>();
  for await (const event of events) {
    switch (event.type) {
      case "message_start":
        readUsage(usage, event.message.usage);
        break;
      case "content_block_start": {
        const block = event.content_block;
        content.start(event.index, block);
        if (block.type === "text" && block.text) yield { type: "text-delta", text: block.text };
        if (block.type === "thinking" && block.thinking)
          yield { type: "reasoning-delta", text: block.thinking };
        if (block.type === "tool_use")
          calling.set(event.index, { id: block.id, name: names.fromWire(block.name) });
        break;
      }
      case "content_block_delta": {
        content.delta(event.index, event.delta);
        const delta = event.delta;
        if (delta.type === "text_delta") yield { type: "text-delta", text: delta.text };
        else if (delta.type === "thinking_delta")
          yield { type: "reasoning-delta", text: delta.thinking };
        else if (delta.type === "input_json_delta" && delta.partial_json) {
          const call = calling.get(event.index);
          if (call) yield { type: "tool-input-delta", ...call, delta: delta.partial_json };
        }
        break;
      }
      case "content_block_stop": {
        const closed = content.stop(event.index);
        if (closed?.block.type === "tool_use") {
          const { block, json } = closed;
          yield {
            type: "tool-call",
            call: {
              id: block.id,
              name: names.fromWire(block.name),
              arguments: callInput(block, json),
            },
          };
        }
        if (closed?.block.type === "tool_search_tool_result") {
          const found = foundTools(closed.block, content, names);
          if (found) yield found;
        }
        break;
      }
      case "message_delta":
        readUsage(usage, event.usage);
        stopReason = event.delta.stop_reason;
        break;
      case "message_stop": {
        const data = providerData(content);
        if (data) yield { type: "provider-data", data: { anthropic: data } };
        yield { type: "usage", usage };
        yield { type: "stop", reason: toStopReason(stopReason) };
        return;
      }
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
 * What the turn must give back to the API next time. After a server tool ran, every block as it
 * came, in order (the API checks the search results and the calls that follow them); otherwise
 * the signed thinking blocks, since text and tool calls are rebuilt exactly from the message
 * and storing them twice would only weigh on the session.
 */
function providerData(content: ReceivedContent): Record<string, unknown> | undefined {
  if (content.hasServerBlocks) return { content: content.all };
  const thinking = content.all.filter(
    (block): block is ThinkingBlock =>
      block.type === "thinking" || block.type === "redacted_thinking",
  );
  return thinking.length > 0 ? { thinking } : undefined;
}

/** The tools one of the API's searches found, as registry names; nothing for a failed search. */
function foundTools(
  result: Anthropic.ToolSearchToolResultBlock,
  content: ReceivedContent,
  names: ToolNameMap,
): ProviderEvent | undefined {
  if (result.content.type !== "tool_search_tool_search_result") return undefined;
  const call = content.serverCall(result.tool_use_id);
  return {
    type: "tools-found",
    query: searchQuery(call?.input),
    names: result.content.tool_references.map((reference) => names.fromWire(reference.tool_name)),
  };
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
function callInput(block: Anthropic.ToolUseBlock, json: string | undefined): unknown {
  if (json === undefined) return block.input ?? {};
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
