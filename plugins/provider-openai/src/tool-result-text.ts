import {
  adaptResultContent,
  type ContentKind,
  describeContentBlock,
  type ToolResult,
} from "@pseudoclaude/core";

/**
 * A tool result as the text a tool message carries. Every block that is not text is already
 * an explicit placeholder (the kernel adapts results to `toolResultContent`; adapting again
 * here covers conversations built by hand). A failure says so up front, because Chat
 * Completions has no error flag on tool messages.
 */
export function toolResultText(
  result: ToolResult,
  accepted: readonly ContentKind[] = ["text"],
): string {
  const adapted = adaptResultContent(result, accepted);
  const text = adapted.content.map(describeContentBlock).join("\n\n");
  if (result.ok) return text === "" ? "(no output)" : text;
  const code = result.error?.code ?? "tool_error";
  return `[error: ${code}] ${text === "" ? (result.error?.message ?? "The tool failed.") : text}`;
}
