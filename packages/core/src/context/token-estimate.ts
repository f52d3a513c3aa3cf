import type { Message } from "../contracts/message.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";

/**
 * About four characters a token for English text and JSON: a rough count, good for a budget
 * check before a request. The context manager calibrates it with the usage providers report
 * after each request, so a tokenizer that counts otherwise is followed within one turn.
 */
const CHARS_PER_TOKEN = 4;
/** What an image or audio block costs, whatever its size in base64. */
const MEDIA_TOKENS = 1_000;

/** The estimated input tokens of one request: system prompt, messages and tool definitions. */
export function estimateRequestTokens(request: {
  system: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
}): number {
  let chars = request.system.length + toolChars(request.tools);
  let media = 0;
  for (const message of request.messages) {
    const counted = messageChars(message);
    chars += counted.chars;
    media += counted.media;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + media * MEDIA_TOKENS;
}

/** The estimated tokens of messages alone. */
export function estimateMessagesTokens(messages: readonly Message[]): number {
  return estimateRequestTokens({ system: "", messages, tools: [] });
}

// Messages are never changed once in a conversation (a compaction makes new ones), and the
// registry hands the same tools array while it is unchanged: both are counted once.
const countedMessages = new WeakMap<Message, { chars: number; media: number }>();
const countedTools = new WeakMap<readonly ToolDefinition[], number>();

function toolChars(tools: readonly ToolDefinition[]): number {
  let chars = countedTools.get(tools);
  if (chars === undefined) {
    chars = 0;
    for (const tool of tools)
      chars += tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length;
    countedTools.set(tools, chars);
  }
  return chars;
}

function messageChars(message: Message): { chars: number; media: number } {
  let counted = countedMessages.get(message);
  if (!counted) {
    counted = countMessage(message);
    countedMessages.set(message, counted);
  }
  return counted;
}

function countMessage(message: Message): { chars: number; media: number } {
  let chars = 8; // role and framing
  let media = 0;
  const blocks =
    message.role === "user"
      ? typeof message.content === "string"
        ? [{ type: "text" as const, text: message.content }]
        : message.content
      : message.role === "tool"
        ? message.result.content
        : [{ type: "text" as const, text: message.text }];
  for (const block of blocks) {
    if (block.type === "text") chars += block.text.length;
    else if (block.type === "image" || block.type === "audio") media += 1;
    else chars += JSON.stringify(block).length;
  }
  if (message.role === "assistant") {
    for (const call of message.toolCalls)
      chars += call.name.length + JSON.stringify(call.arguments ?? {}).length;
    // Signed reasoning and encrypted items travel back and count.
    if (message.providerData) chars += JSON.stringify(message.providerData).length;
  }
  if (message.role === "tool" && message.result.structured !== undefined)
    chars += JSON.stringify(message.result.structured).length;
  return { chars, media };
}
