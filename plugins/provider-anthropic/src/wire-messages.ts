import type Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, ToolResult } from "@pseudoclaude/core";
import { type ContentKind, describeContentBlock, isPlainObject } from "@pseudoclaude/core/plugin";
import type { ToolNameMap } from "@pseudoclaude/core/provider";
import { type AssistantMessage, type Message } from "@pseudoclaude/core/provider";
import { isServerBlock } from "./received-content.js";

/** Content kinds a `tool_result` block can carry to the model (text resources count as text). */
export const ANTHROPIC_TOOL_RESULT_CONTENT: readonly ContentKind[] = ["text", "image"];

/** Image types the Messages API decodes; other images become placeholders. */
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;

/** Whether the Messages API takes this block in a tool result (image types it decodes). */
export function anthropicAcceptsContent(block: ContentBlock): boolean {
  return block.type !== "image" || (IMAGE_TYPES as readonly string[]).includes(block.mimeType);
}
type ImageType = (typeof IMAGE_TYPES)[number];

type UserBlock = Anthropic.ContentBlockParam;

/** How the conversation is sent. */
export interface AnthropicMessageOptions {
  /**
   * The request carries the API's tool search: an assistant turn in which it ran is sent
   * exactly as received. Without it such a turn is rebuilt from its text and calls, since the
   * API refuses a search call its request did not offer.
   */
  serverToolSearch?: boolean | undefined;
}

/**
 * The conversation as Messages API turns. Tool results become `tool_result` blocks in a user
 * turn (results of one assistant turn share it), and consecutive turns of one role merge,
 * because the API wants user and assistant to alternate.
 */
export function toAnthropicMessages(
  messages: readonly Message[],
  names: ToolNameMap,
  options: AnthropicMessageOptions = {},
): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  const push = (role: "user" | "assistant", content: UserBlock[]) => {
    if (content.length === 0) return; // The API rejects empty turns.
    const previous = out.at(-1);
    if (previous?.role === role && Array.isArray(previous.content)) {
      previous.content.push(...content);
    } else {
      out.push({ role, content });
    }
  };
  for (const message of messages) {
    switch (message.role) {
      case "user":
        push(
          "user",
          typeof message.content === "string"
            ? textBlocks(message.content)
            : message.content.map(toContentBlock),
        );
        break;
      case "assistant": {
        const received = receivedContent(message, options.serverToolSearch === true);
        if (received) {
          // A copy: a following assistant turn would be merged into this array.
          push("assistant", [...received]);
          break;
        }
        // Thinking first, exactly as received: the API checks their signatures.
        const content: UserBlock[] = [
          ...thinkingOf(message.providerData),
          ...textBlocks(message.text),
        ];
        for (const call of message.toolCalls) {
          content.push({
            type: "tool_use",
            id: call.id,
            name: names.toWire(call.name),
            input: toolInput(call.arguments),
          });
        }
        push("assistant", content);
        break;
      }
      case "tool":
        push("user", [toToolResultBlock(message.callId, message.result)]);
        break;
    }
  }
  return out;
}

/**
 * One tool result; kinds the API cannot take are explicit placeholders, never dropped. The
 * agent has already turned them into counted placeholders (see `toolResultContent`); a block
 * that still arrives here, in a conversation built by hand, is described the same way.
 */
export function toToolResultBlock(
  callId: string,
  result: ToolResult,
): Anthropic.ToolResultBlockParam {
  const content = result.content.map(toContentBlock) as Array<
    Anthropic.TextBlockParam | Anthropic.ImageBlockParam
  >;
  if (content.length === 0 && result.error) {
    content.push({ type: "text", text: result.error.message });
  }
  const block: Anthropic.ToolResultBlockParam = { type: "tool_result", tool_use_id: callId };
  if (content.length > 0) block.content = content;
  if (!result.ok) block.is_error = true;
  return block;
}

function toContentBlock(block: ContentBlock): Anthropic.TextBlockParam | Anthropic.ImageBlockParam {
  if (block.type === "image" && (IMAGE_TYPES as readonly string[]).includes(block.mimeType)) {
    return {
      type: "image",
      source: { type: "base64", media_type: block.mimeType as ImageType, data: block.data },
    };
  }
  // Text as is; everything else (an SVG image, audio, a binary resource) as what it was.
  return { type: "text", text: describeContentBlock(block) };
}

function textBlocks(text: string): Anthropic.TextBlockParam[] {
  // The API rejects empty (and whitespace-only) text blocks.
  return text.trim() === "" ? [] : [{ type: "text", text }];
}

/**
 * `tool_use.input` must be an object. Arguments the model broke (kept as the raw string so the
 * registry answered `invalid_arguments`) are sent as an object that still shows them.
 */
function toolInput(args: unknown): Record<string, unknown> {
  if (isPlainObject(args)) return args;
  if (typeof args === "string") {
    try {
      const parsed: unknown = JSON.parse(args);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // Not JSON: fall through.
    }
  }
  return args === undefined ? {} : { _invalid_arguments: args };
}

/** What this provider stored on an assistant turn (see `translateStream`). */
function storedOf(providerData: Record<string, unknown> | undefined): {
  thinking?: unknown;
  content?: unknown;
} {
  const stored = providerData?.anthropic;
  return stored && typeof stored === "object" ? stored : {};
}

/** The signed thinking blocks of an assistant turn, if any. */
function thinkingOf(providerData: Record<string, unknown> | undefined): UserBlock[] {
  const { thinking, content } = storedOf(providerData);
  if (Array.isArray(thinking)) return thinking as UserBlock[];
  if (!Array.isArray(content)) return [];
  return (content as UserBlock[]).filter(
    (block) => block.type === "thinking" || block.type === "redacted_thinking",
  );
}

/**
 * The turn's blocks exactly as the API sent them, when it stored them (a server tool ran) and
 * they still describe the message: the same tool calls, by id and in order. A conversation
 * edited since (calls renamed or dropped) gets the rebuilt turn instead.
 */
function receivedContent(
  message: AssistantMessage,
  serverToolSearch: boolean,
): UserBlock[] | undefined {
  const { content } = storedOf(message.providerData);
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const blocks = content as UserBlock[];
  if (!serverToolSearch && blocks.some(isServerBlock)) return undefined;
  const ids = blocks.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
  const calls = message.toolCalls.map((call) => call.id);
  if (ids.length !== calls.length || ids.some((id, at) => id !== calls[at])) return undefined;
  return blocks;
}
