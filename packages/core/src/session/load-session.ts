import type { Diagnostic } from "../contracts/diagnostic.js";
import type { Message } from "../contracts/message.js";
import { replaySession } from "./replay-session.js";
import type { SessionStore } from "./session-store.js";

/**
 * A session's conversation, ready for a provider, with the tools it had found: replayed from the store's entries, its
 * problems (a torn last line, calls left without results) reported. Undefined when the store
 * has no such session.
 */
export async function loadSession(
  store: SessionStore,
  sessionId: string,
  report: (diagnostic: Diagnostic) => void,
): Promise<{ messages: Message[]; found: string[] } | undefined> {
  const loaded = await store.load(sessionId);
  if (!loaded) return undefined;
  for (const diagnostic of loaded.diagnostics) report(diagnostic);
  const { messages, found, repaired } = replaySession(loaded.entries);
  if (repaired > 0)
    report({
      stage: "session",
      severity: "info",
      code: "session_repaired",
      item: sessionId,
      message: `Session ${sessionId}: ${repaired} tool call${repaired === 1 ? "" : "s"} without a result (or results without a call) were paired so the model can continue.`,
    });
  return { messages, found };
}
