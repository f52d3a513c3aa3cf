import { type ContentBlock } from "@pseudoclaude/core";
import { type ContentKind, describeContentBlock } from "@pseudoclaude/core/plugin";
import type { ToolNameMap } from "@pseudoclaude/core/provider";
import { type Message } from "@pseudoclaude/core/provider";
import type OpenAI from "openai";
import { toolResultText } from "./tool-result-text.js";

/** Chat Completions tool messages carry text only; every other kind becomes a placeholder. */
export const CHAT_TOOL_RESULT_CONTENT: readonly ContentKind[] = ["text"];

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type UserPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

/**
 * The conversation as Chat Completions messages: the system prompt first, tool calls as the
 * assistant's `tool_calls`, and each result as its own `tool` message right after.
 */
export function toChatMessages(
  system: string,
  messages: readonly Message[],
  names: ToolNameMap,
): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const message of messages) {
    switch (message.role) {
      case "user":
        out.push({
          role: "user",
          content:
            typeof message.content === "string" ? message.content : message.content.map(toUserPart),
        });
        break;
      case "assistant": {
        if (message.toolCalls.length === 0) {
          out.push({ role: "assistant", content: message.text });
          break;
        }
        out.push({
          role: "assistant",
          content: message.text === "" ? null : message.text,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: names.toWire(call.name), arguments: argumentsText(call.arguments) },
          })),
        });
        break;
      }
      case "tool":
        out.push({
          role: "tool",
          tool_call_id: message.callId,
          content: toolResultText(message.result),
        });
        break;
    }
  }
  return out;
}

/** Arguments as the JSON text the model sent; broken JSON was kept as its raw string. */
export function argumentsText(args: unknown): string {
  if (typeof args === "string") return args;
  return JSON.stringify(args ?? {});
}

function toUserPart(block: ContentBlock): UserPart {
  if (block.type === "image") {
    return { type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
  }
  return { type: "text", text: describeContentBlock(block) };
}
