import type { Message } from "../contracts/message.js";
import { toolFailure } from "../contracts/tool-result.js";
import type { SessionEntry } from "./session-store.js";

/**
 * The conversation a session's entries leave, as the model saw it last: turns in order, a
 * compaction replacing what came before it, a clear starting over. Then every tool call is
 * paired with its result (a provider refuses one without the other): a call whose result was
 * never written (the process died while it ran) gets a failure that says so, and a result
 * without its call is dropped. `repaired` counts both.
 */
export function replaySession(entries: readonly SessionEntry[]): {
  messages: Message[];
  found: string[];
  repaired: number;
} {
  let messages: Message[] = [];
  let found = new Set<string>();
  for (const entry of entries) {
    if (entry.type === "turn") messages.push(...entry.messages);
    else if (entry.type === "compaction") messages = [...entry.messages];
    else if (entry.type === "clear") {
      messages = [];
      found = new Set();
    } else if (entry.type === "tools-found" && Array.isArray(entry.names))
      for (const name of entry.names) if (typeof name === "string") found.add(name);
  }
  return { ...pairToolCalls(messages), found: [...found] };
}

function pairToolCalls(messages: readonly Message[]): { messages: Message[]; repaired: number } {
  const out: Message[] = [];
  let repaired = 0;
  let open = new Map<string, string>();
  const closeOpen = () => {
    for (const [callId, toolName] of open) {
      repaired += 1;
      out.push({
        role: "tool",
        callId,
        toolName,
        result: toolFailure(
          "cancelled",
          `Call to "${toolName}" has no result: the session ended before it finished, so it may or may not have run.`,
        ),
      });
    }
    open = new Map();
  };
  for (const message of messages) {
    if (message.role === "tool") {
      if (open.delete(message.callId)) out.push(message);
      else repaired += 1;
      continue;
    }
    closeOpen();
    out.push(message);
    if (message.role === "assistant")
      for (const call of message.toolCalls) open.set(call.id, call.name);
  }
  closeOpen();
  return { messages: out, repaired };
}
