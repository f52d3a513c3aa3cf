import type { StopReason } from "@pseudoclaude/core/provider";

/** The kernel's stop reason for the Messages API's `stop_reason`. */
export function toStopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case "end_turn":
    case "tool_use":
    case "max_tokens":
    case "stop_sequence":
    case "refusal":
    case "pause_turn":
      return reason;
    // The answer was cut by the context window: the same remedy as a token limit.
    case "model_context_window_exceeded":
      return "max_tokens";
    default:
      return "other";
  }
}
