import type { SessionSummary } from "@pseudoclaude/core";

/** A session as `sessions --json` prints it. */
export function sessionToJson(session: SessionSummary) {
  return {
    id: session.id,
    created: session.created,
    updated: session.updated,
    first_prompt: session.firstPrompt ?? null,
    turns: session.turns,
    tokens: session.tokens,
  };
}

/** `id  2026-12-01 12:40  3 turns  120/45 tokens  "first prompt"` */
export function sessionLine(session: SessionSummary): string {
  const when = session.updated.replace("T", " ").slice(0, 16);
  const prompt = (session.firstPrompt ?? "").replace(/\s+/g, " ").slice(0, 60);
  return `${session.id}  ${when}  ${session.turns} turn${session.turns === 1 ? "" : "s"}  ${session.tokens.input}/${session.tokens.output} tokens  ${JSON.stringify(prompt)}`;
}
