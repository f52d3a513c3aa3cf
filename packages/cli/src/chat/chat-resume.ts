import type { Agent } from "@pseudoclaude/core";
import { sessionLine } from "../render-sessions.js";
import type { ChatOutput } from "./chat-output.js";

/** How many sessions `/resume` lists. */
const LISTED = 10;

/**
 * `/resume`: the workspace's latest sessions; `/resume ID`: continue that one in this chat
 * (its conversation replaces this one, which stays saved under its own id).
 */
export async function resumeFromChat(
  agent: Agent,
  id: string | undefined,
  output: ChatOutput,
): Promise<void> {
  const store = agent.sessionStore;
  if (!store) {
    output.command("resume", "This chat is not saved as a session.");
    return;
  }
  if (id === undefined) {
    const sessions = (await store.list()).filter((session) => session.id !== agent.sessionId);
    output.command(
      "resume",
      sessions.length === 0
        ? "No other session in this workspace."
        : [
            ...sessions.slice(0, LISTED).map(sessionLine),
            ...(sessions.length > LISTED ? [`and ${sessions.length - LISTED} more`] : []),
            "/resume ID continues one here.",
          ].join("\n"),
    );
    return;
  }
  await agent.resumeSession(id);
  output.command("resume", `Continuing session ${id} (${agent.conversation.length} messages).`);
}
