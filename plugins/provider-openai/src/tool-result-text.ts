import type { ToolResult } from "@pseudoclaude/core";
import { describeContentBlock } from "@pseudoclaude/core/plugin";

/**
 * A tool result as the text a tool message carries. Every block that is not text is already
 * an explicit placeholder (the agent adapts results to `toolResultContent`), and one in a
 * conversation built by hand is described as the placeholder would be. A failure says so up
 * front, because Chat Completions has no error flag on tool messages.
 */
export function toolResultText(result: ToolResult): string {
  const text = result.content.map(describeContentBlock).join("\n\n");
  if (result.ok) return text === "" ? "(no output)" : text;
  const code = result.error?.code ?? "tool_error";
  return `[error: ${code}] ${text === "" ? (result.error?.message ?? "The tool failed.") : text}`;
}
