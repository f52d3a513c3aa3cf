import type { Message, ToolResultMessage } from "../contracts/message.js";

/** Each tool result is cut to this many characters in a transcript. */
const RESULT_CHARS = 2_000;

/**
 * The metadata key under which a stubbed result keeps its text as a transcript shows it (cut
 * to {@link RESULT_CHARS}): the model no longer sees it, but a later summary still can.
 */
export const TRANSCRIPT_TEXT_KEY = "transcript_text";

/** A tool result's text as a transcript shows it: its text blocks, each cut to the limit. */
export function transcriptResultText(message: ToolResultMessage): string {
  const kept = message.result.metadata[TRANSCRIPT_TEXT_KEY];
  if (message.result.metadata.compacted === true && typeof kept === "string") return kept;
  const text = message.result.content
    .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
    .join("\n");
  return text.length > RESULT_CHARS ? `${text.slice(0, RESULT_CHARS)}… (cut)` : text;
}

/**
 * Messages as plain text for a summary request: who said what, which tool was called with
 * what, what it answered (cut; for a stubbed result, what it answered before the stub, so a
 * summary never reads a stub instead of a result). Longer than `maxChars`, the oldest part is
 * dropped.
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
      lines.push(
        `${message.toolName} ${message.result.ok ? "returned" : "failed"}: ${transcriptResultText(message)}`,
      );
    }
  }
  const transcript = lines.join("\n\n");
  return transcript.length > maxChars
    ? `(earlier part left out)\n${transcript.slice(transcript.length - maxChars)}`
    : transcript;
}
