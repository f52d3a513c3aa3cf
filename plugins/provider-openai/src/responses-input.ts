import type { ContentBlock, ToolResult } from "@pseudoclaude/core";
import { type ContentKind, describeContentBlock } from "@pseudoclaude/core/plugin";
import type { ToolNameMap } from "@pseudoclaude/core/provider";
import { type Message } from "@pseudoclaude/core/provider";
import type OpenAI from "openai";
import { argumentsText } from "./chat-messages.js";
import { toolResultText } from "./tool-result-text.js";

/** A Responses `function_call_output` carries text and images; other kinds become placeholders. */
export const RESPONSES_TOOL_RESULT_CONTENT: readonly ContentKind[] = ["text", "image"];

type InputItem = OpenAI.Responses.ResponseInputItem;
type OutputPart = OpenAI.Responses.ResponseFunctionCallOutputItem;
type UserPart = OpenAI.Responses.ResponseInputContent;

/**
 * The conversation as Responses input items: messages, then each tool call as a
 * `function_call` item and its result as a `function_call_output` item. The system prompt
 * goes in `instructions`, not here.
 */
export function toResponsesInput(messages: readonly Message[], names: ToolNameMap): InputItem[] {
  const out: InputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "user":
        out.push({
          role: "user",
          content:
            typeof message.content === "string" ? message.content : message.content.map(toUserPart),
        });
        break;
      case "assistant":
        // The turn's reasoning items first, as they came, so the model keeps its reasoning.
        out.push(...reasoningOf(message.providerData));
        if (message.text !== "") out.push({ role: "assistant", content: message.text });
        for (const call of message.toolCalls) {
          out.push({
            type: "function_call",
            call_id: call.id,
            name: names.toWire(call.name),
            arguments: argumentsText(call.arguments),
          });
        }
        break;
      case "tool":
        out.push({
          type: "function_call_output",
          call_id: message.callId,
          output: toOutput(message.result),
        });
        break;
    }
  }
  return out;
}

/** Text alone stays a string; with images, a list of parts in the result's order. */
function toOutput(result: ToolResult): string | OutputPart[] {
  // Blocks the API cannot take arrive as the agent's placeholders, or are described below.
  if (!result.content.some((block) => block.type === "image")) return toolResultText(result);
  const parts: OutputPart[] = [];
  if (!result.ok)
    parts.push({ type: "input_text", text: `[error: ${result.error?.code ?? "tool_error"}]` });
  for (const block of result.content) {
    parts.push(
      block.type === "image"
        ? { type: "input_image", image_url: `data:${block.mimeType};base64,${block.data}` }
        : { type: "input_text", text: describeContentBlock(block) },
    );
  }
  return parts;
}

function toUserPart(block: ContentBlock): UserPart {
  if (block.type === "image") {
    return {
      type: "input_image",
      detail: "auto",
      image_url: `data:${block.mimeType};base64,${block.data}`,
    };
  }
  return { type: "input_text", text: describeContentBlock(block) };
}

/** Reasoning items this provider stored on an assistant turn, if any. */
function reasoningOf(
  providerData: Record<string, unknown> | undefined,
): OpenAI.Responses.ResponseInputItem[] {
  const stored = (providerData?.openai as { reasoning?: unknown } | undefined)?.reasoning;
  return Array.isArray(stored) ? (stored as OpenAI.Responses.ResponseInputItem[]) : [];
}
