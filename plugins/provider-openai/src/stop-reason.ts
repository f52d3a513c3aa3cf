import type { StopReason } from "@pseudoclaude/core/provider";

/** The kernel's stop reason for a Chat Completions `finish_reason`. */
export function chatStopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case "stop":
      return "end_turn";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "length":
      return "max_tokens";
    case "content_filter":
      return "refusal";
    default:
      return "other";
  }
}
