import type { ContentBlock } from "./content.js";
import type { ToolCall } from "./tool-call.js";
import type { ToolResult } from "./tool-result.js";

/** A turn of the conversation, independent of any provider's wire format. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export interface UserMessage {
  role: "user";
  content: string | ContentBlock[];
}

export interface AssistantMessage {
  role: "assistant";
  text: string;
  toolCalls: ToolCall[];
  /** What the provider asked to get back with this turn (see the `provider-data` event). */
  providerData?: Record<string, unknown>;
}

/** The result of one tool call, in the form the model will read it. */
export interface ToolResultMessage {
  role: "tool";
  callId: string;
  toolName: string;
  result: ToolResult;
}
