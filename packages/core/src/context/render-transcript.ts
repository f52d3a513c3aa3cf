import type { Message } from "../conversation/message.js";

/** Each tool result is cut to this many characters in a transcript. */
const RESULT_CHARS = 2_000;

/**
 * Messages as plain text for a summary request: who said what, which tool was called with
 * what, what it answered (cut). Longer than `maxChars`, the oldest part is dropped.
 */
export function renderTranscript(messages: readonly Message[], maxChars: number): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text =
        typeof message.content === "string"
          ? message.content
          : message.content
              .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
              .join("\n");
      lines.push(`User: ${text}`);
    } else if (message.role === "assistant") {
      if (message.text) lines.push(`Assistant: ${message.text}`);
      for (const call of message.toolCalls)
        lines.push(`Assistant called ${call.name} with ${JSON.stringify(call.arguments ?? {})}`);
    } else {
      const text = message.result.content
        .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
        .join("\n");
      const cut = text.length > RESULT_CHARS ? `${text.slice(0, RESULT_CHARS)}… (cut)` : text;
      lines.push(`${message.toolName} ${message.result.ok ? "returned" : "failed"}: ${cut}`);
    }
  }
  const transcript = lines.join("\n\n");
  return transcript.length > maxChars
    ? `(earlier part left out)\n${transcript.slice(transcript.length - maxChars)}`
    : transcript;
}
