import { type ContentBlock, describeContentBlock } from "../contracts/content.js";
import type { Message } from "../contracts/message.js";
import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolResult } from "../contracts/tool-result.js";

/**
 * Contents in the GenAI conventions' message shape (`role` and `parts`), as the JSON strings
 * span attributes can hold. Only built when content recording is on: prompts and results are
 * often private, so a trace carries them only when asked to. Binary blocks become the same
 * placeholders a model that cannot read them gets, so a trace never balloons with base64.
 */
type Part =
  | { type: "text"; content: string }
  | { type: "tool_call"; id: string; name: string; arguments: unknown }
  | { type: "tool_call_response"; id: string; response: string };

interface TraceMessage {
  role: "user" | "assistant" | "tool";
  parts: Part[];
}

export function messagesJson(messages: readonly Message[]): string {
  return JSON.stringify(messages.map(traceMessage));
}

export function outputJson(text: string, toolCalls: readonly ToolCall[]): string {
  return JSON.stringify([
    { role: "assistant", parts: assistantParts(text, toolCalls) } satisfies TraceMessage,
  ]);
}

export function systemJson(system: string): string {
  return JSON.stringify([{ type: "text", content: system }]);
}

export function resultText(result: ToolResult): string {
  return blocksText(result.content);
}

function traceMessage(message: Message): TraceMessage {
  switch (message.role) {
    case "user":
      return {
        role: "user",
        parts: [
          {
            type: "text",
            content:
              typeof message.content === "string" ? message.content : blocksText(message.content),
          },
        ],
      };
    case "assistant":
      return { role: "assistant", parts: assistantParts(message.text, message.toolCalls) };
    case "tool":
      return {
        role: "tool",
        parts: [
          { type: "tool_call_response", id: message.callId, response: resultText(message.result) },
        ],
      };
  }
}

function assistantParts(text: string, toolCalls: readonly ToolCall[]): Part[] {
  const parts: Part[] = text ? [{ type: "text", content: text }] : [];
  for (const call of toolCalls)
    parts.push({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments });
  return parts;
}

function blocksText(blocks: readonly ContentBlock[]): string {
  return blocks.map(describeContentBlock).join("\n");
}
