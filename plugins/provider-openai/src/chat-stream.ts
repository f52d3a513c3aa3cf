import { ModelError } from "@pseudoclaude/core";
import {
  type ProviderEvent,
  type ProviderUsage,
  type StopReason,
} from "@pseudoclaude/core/provider";
import type OpenAI from "openai";
import { parseArguments } from "./parse-arguments.js";
import { chatStopReason } from "./stop-reason.js";
import { toUsage } from "./usage.js";
import type { WireTools } from "./wire-tools.js";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Turn a Chat Completions stream into kernel events: text as it arrives, a tool call's
 * argument pieces as they arrive (for display), tool calls once the choice finishes (their
 * names and arguments arrive in pieces, keyed by index), then usage
 * (the last chunk, with `include_usage`) and the stop reason. A stream without a
 * `finish_reason` was cut off and fails instead of passing for a short answer.
 */
export async function* translateChatStream(
  chunks: AsyncIterable<Chunk>,
  tools: WireTools,
  signal: AbortSignal | undefined,
): AsyncGenerator<ProviderEvent> {
  const calls: PendingCall[] = [];
  let usage: ProviderUsage | undefined;
  let stop: StopReason | undefined;
  let refused = false;
  let lastIndex = -1;
  for await (const chunk of chunks) {
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? undefined;
      usage = toUsage(chunk.usage.prompt_tokens, chunk.usage.completion_tokens, cached);
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (delta.content) yield { type: "text-delta", text: delta.content };
    if (delta.refusal) {
      refused = true;
      yield { type: "text-delta", text: delta.refusal };
    }
    for (const part of delta.tool_calls ?? []) {
      // Servers that omit `index` send each call whole, or continue the last one without an id.
      const index = part.index ?? (part.id ? lastIndex + 1 : Math.max(lastIndex, 0));
      lastIndex = Math.max(lastIndex, index);
      let call = calls[index];
      if (!call) {
        call = { id: "", name: "", arguments: "" };
        calls[index] = call;
      }
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      const piece = part.function?.arguments;
      if (piece) {
        call.arguments += piece;
        // Shown as it streams once the call is known by id and name (both come first).
        if (call.id && call.name)
          yield {
            type: "tool-input-delta",
            id: call.id,
            name: tools.names.fromWire(call.name),
            delta: piece,
          };
      }
    }
    if (choice.finish_reason) {
      stop = refused ? "refusal" : chatStopReason(choice.finish_reason);
      for (const call of calls) {
        if (!call) continue;
        const read = tools.readCall(call.name, parseArguments(call.arguments));
        yield {
          type: "tool-call",
          call: { id: call.id, name: read.name, arguments: read.arguments },
        };
      }
      calls.length = 0;
    }
  }
  if (signal?.aborted) return;
  if (stop === undefined) {
    throw new ModelError(
      "stream_incomplete",
      "The OpenAI stream ended without a finish_reason: the answer is incomplete.",
      { details: { provider: "openai" } },
    );
  }
  if (usage) yield { type: "usage", usage };
  yield { type: "stop", reason: stop };
}
