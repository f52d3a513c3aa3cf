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

/** How the conversation is sent. */
export interface ResponsesInputOptions {
  /**
   * The request carries the hosted tool search: the search items of earlier turns go back as
   * they came, and each call of a namespaced function with the namespace it came with. Without
   * it both are left out, since the API refuses a search call its request did not offer and
   * the request has no namespaces; found tools are then sent loaded.
   */
  hostedToolSearch?: boolean | undefined;
}

/**
 * The conversation as Responses input items: messages, then each tool call as a
 * `function_call` item and its result as a `function_call_output` item. The system prompt
 * goes in `instructions`, not here.
 */
export function toResponsesInput(
  messages: readonly Message[],
  names: ToolNameMap,
  options: ResponsesInputOptions = {},
): InputItem[] {
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
        // The turn's reasoning and search items first, in the order they came, so the model
        // keeps its reasoning and the tools its searches loaded.
        out.push(...itemsOf(message.providerData, options.hostedToolSearch === true));
        if (message.text !== "") out.push({ role: "assistant", content: message.text });
        for (const call of message.toolCalls) {
          const namespace = options.hostedToolSearch
            ? namespaceOf(message.providerData, call.id)
            : undefined;
          out.push({
            type: "function_call",
            call_id: call.id,
            name: names.toWire(call.name),
            ...(namespace !== undefined ? { namespace } : {}),
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

/**
 * The output items this provider stored on an assistant turn (see `translateResponsesStream`);
 * `reasoning` is where sessions written before tool search keep theirs.
 */
function itemsOf(
  providerData: Record<string, unknown> | undefined,
  hostedToolSearch: boolean,
): InputItem[] {
  const stored = providerData?.openai as { items?: unknown; reasoning?: unknown } | undefined;
  const items = Array.isArray(stored?.items)
    ? stored.items
    : Array.isArray(stored?.reasoning)
      ? stored.reasoning
      : [];
  return (items as InputItem[]).filter(
    (item) => hostedToolSearch || !("type" in item && item.type?.startsWith("tool_search_")),
  );
}

/**
 * The namespace a call came with (see `translateResponsesStream`). It is kept with the turn
 * rather than worked out from this request's tools, so the call goes back exactly as the model
 * made it, whatever this request's namespaces are.
 */
function namespaceOf(
  providerData: Record<string, unknown> | undefined,
  callId: string,
): string | undefined {
  const stored = providerData?.openai as { namespaces?: unknown } | undefined;
  const namespaces = stored?.namespaces;
  if (!namespaces || typeof namespaces !== "object") return undefined;
  const namespace = (namespaces as Record<string, unknown>)[callId];
  return typeof namespace === "string" ? namespace : undefined;
}
