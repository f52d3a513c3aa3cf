import { ModelError } from "@pseudoclaude/core";
import {
  type ProviderEvent,
  type ProviderUsage,
  type StopReason,
} from "@pseudoclaude/core/provider";
import type OpenAI from "openai";
import { loadedFunctions, searchInputItem, searchQuery } from "./hosted-tool-search.js";
import { parseArguments } from "./parse-arguments.js";
import { toUsage } from "./usage.js";
import type { WireTools } from "./wire-tools.js";

type ResponseEvent = OpenAI.Responses.ResponseStreamEvent;

/**
 * Turn a Responses stream into kernel events: text deltas, each function call when its item
 * is done (arguments complete), what the hosted tool search loaded when its output is done,
 * then usage and the stop reason from the final
 * `response.completed` / `response.incomplete`. A failed response or an `error` event is a
 * ModelError; a stream without a final event was cut off.
 */
export async function* translateResponsesStream(
  events: AsyncIterable<ResponseEvent>,
  tools: WireTools,
  signal: AbortSignal | undefined,
): AsyncGenerator<ProviderEvent> {
  let calls = 0;
  let refused = false;
  // Encrypted reasoning and hosted search items, in the order they came: sent back before this
  // turn's function calls next time (nothing is stored on the server).
  const items: unknown[] = [];
  // A server-run search may have no call id: its output then answers the latest call.
  const searches = new Map<string | null, OpenAI.Responses.ResponseToolSearchCall>();
  // The namespace each call of a namespaced function came with, by call id: the call goes back
  // with it next time (the registry name alone does not say it).
  const namespaces: Record<string, string> = {};
  // The function calls whose arguments are streaming, by output item id: each piece is passed on.
  const calling = new Map<string, { id: string; name: string }>();
  for await (const event of events) {
    switch (event.type) {
      case "response.output_text.delta":
        yield { type: "text-delta", text: event.delta };
        break;
      case "response.refusal.delta":
        refused = true;
        yield { type: "text-delta", text: event.delta };
        break;
      case "response.reasoning_summary_text.delta":
        yield { type: "reasoning-delta", text: event.delta };
        break;
      case "response.output_item.added":
        if (event.item.type === "function_call" && event.item.id)
          calling.set(event.item.id, {
            id: event.item.call_id,
            name: tools.names.fromWire(event.item.name),
          });
        break;
      case "response.function_call_arguments.delta": {
        const call = calling.get(event.item_id);
        if (call && event.delta) yield { type: "tool-input-delta", ...call, delta: event.delta };
        break;
      }
      case "response.output_item.done":
        if (event.item.type === "reasoning") items.push(event.item);
        if (event.item.type === "tool_search_call") {
          items.push(searchInputItem(event.item));
          searches.set(event.item.call_id, event.item);
        }
        if (event.item.type === "tool_search_output") {
          items.push(searchInputItem(event.item));
          yield {
            type: "tools-found",
            query: searchQuery(searches.get(event.item.call_id)?.arguments),
            names: loadedFunctions(event.item.tools).map((name) => tools.names.fromWire(name)),
          };
        }
        if (event.item.type === "function_call") {
          calls += 1;
          if (event.item.namespace) namespaces[event.item.call_id] = event.item.namespace;
          const read = tools.readCall(event.item.name, parseArguments(event.item.arguments));
          yield {
            type: "tool-call",
            call: { id: event.item.call_id, name: read.name, arguments: read.arguments },
          };
        }
        break;
      case "response.completed":
      case "response.incomplete": {
        const calledIn = Object.keys(namespaces).length > 0 ? { namespaces } : {};
        if (items.length > 0 || calledIn.namespaces)
          yield { type: "provider-data", data: { openai: { items, ...calledIn } } };
        const usage = event.response.usage;
        if (usage) yield { type: "usage", usage: readUsage(usage) };
        const reason: StopReason =
          event.type === "response.completed"
            ? refused
              ? "refusal"
              : calls > 0
                ? "tool_use"
                : "end_turn"
            : incompleteReason(event.response.incomplete_details?.reason);
        yield { type: "stop", reason };
        return;
      }
      case "response.failed": {
        const failure = event.response.error;
        throw new ModelError(
          "response_failed",
          `The OpenAI response failed${failure ? ` (${failure.code}): ${failure.message}` : "."}`,
          { details: { provider: "openai", ...(failure ? { error_code: failure.code } : {}) } },
        );
      }
      case "error":
        throw new ModelError(
          "api_error",
          `OpenAI API error in the stream${event.code ? ` (${event.code})` : ""}: ${event.message}`,
          {
            details: { provider: "openai", ...(event.code ? { error_code: event.code } : {}) },
          },
        );
    }
  }
  if (signal?.aborted) return;
  throw new ModelError(
    "stream_incomplete",
    "The OpenAI stream ended before response.completed: the answer is incomplete.",
    { details: { provider: "openai" } },
  );
}

function readUsage(usage: OpenAI.Responses.ResponseUsage): ProviderUsage {
  const result = toUsage(
    usage.input_tokens,
    usage.output_tokens,
    usage.input_tokens_details?.cached_tokens,
  );
  const written = usage.input_tokens_details?.cache_write_tokens;
  if (typeof written === "number" && written > 0) {
    result.cacheWriteTokens = written;
    result.inputTokens = Math.max(0, (result.inputTokens ?? 0) - written);
  }
  return result;
}

function incompleteReason(reason: string | undefined): StopReason {
  if (reason === "max_output_tokens") return "max_tokens";
  if (reason === "content_filter") return "refusal";
  return "other";
}
