// The rule every request must keep, whatever compaction did: each tool result right after the
// assistant turn that called it, each call answered.
import type { Message } from "@pseudoclaude/core/provider";

/** Problems with the pairing of calls and results in `messages`; empty when all is well. */
export function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      if (!open.delete(message.callId))
        problems.push(`message ${index}: result ${message.callId} without its call`);
      continue;
    }
    for (const id of open) problems.push(`message ${index}: call ${id} without its result`);
    open = new Set(message.role === "assistant" ? message.toolCalls.map((call) => call.id) : []);
  }
  for (const id of open) problems.push(`end: call ${id} without its result`);
  return problems;
}
