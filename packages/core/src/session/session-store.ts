import type { Diagnostic } from "../contracts/diagnostic.js";
import type { Message } from "../contracts/message.js";
import type { PolicyDecision } from "../contracts/policy-engine.js";
import type { ProviderUsage } from "../contracts/provider.js";
import type { ApprovalOutcome } from "../contracts/run-records.js";
import type { ToolTaskStatus } from "../contracts/tool-task.js";
import { UsageError, type UsageErrorCode } from "../errors.js";

/**
 * One line of a session's log. A session is only appended to: the conversation is rebuilt by
 * replaying its entries (see `replaySession`), so what was written is never rewritten.
 */
export type SessionEntry =
  /** The first entry: which session, for which workspace, since when. */
  | { type: "session"; version: 1; id: string; workspace: string; created: string }
  /** One model turn: the messages it added (the prompt, the answer, the tool results), and its usage. */
  | { type: "turn"; at: string; messages: Message[]; usage?: ProviderUsage }
  /**
   * The conversation was compacted: from here on the model sees `messages` instead of what
   * came before (which stays in the log).
   */
  | {
      type: "compaction";
      at: string;
      messages: Message[];
      tokensBefore: number;
      tokensAfter: number;
    }
  /** The conversation was started over (a chat's `/clear`): found tools are forgotten too. */
  | { type: "clear"; at: string }
  /**
   * Tool search found these tools (registry names, in the order found): they stay loaded for
   * the rest of the conversation, across compactions, and when it is continued.
   */
  | { type: "tools-found"; at: string; names: string[] }
  /**
   * A call a tool made on the agent's behalf (a code-mode program's), when it ended: the call
   * that made it, how it was decided and whether it failed. Its result went to the program, not
   * to the model; the model reads the program's answer, which the turn records.
   */
  | {
      type: "inner-call";
      at: string;
      parentCallId: string;
      callId: string;
      tool: string;
      arguments: unknown;
      verdict: PolicyDecision["verdict"];
      approval?: ApprovalOutcome;
      ok: boolean;
      /** The failure's code, when it failed (`denied`, `timeout`, a tool's own). */
      error?: string;
    }
  /** A tool call's long-running task moved on (`pseudoclaude tasks` lists them). */
  | {
      type: "task";
      at: string;
      callId: string;
      tool: string;
      taskId: string;
      status: ToolTaskStatus;
      statusMessage?: string;
    };

/** What `sessions` lists about one session. */
export interface SessionSummary {
  id: string;
  workspace: string;
  /** ISO times of the first and the last entry. */
  created: string;
  updated: string;
  /** The first prompt, cut to 200 characters. */
  firstPrompt?: string;
  /** Model turns in the whole log. */
  turns: number;
  tokens: { input: number; output: number };
}

/** A session as read back: its entries, and what was wrong with the log (a torn last line). */
export interface LoadedSession {
  id: string;
  entries: SessionEntry[];
  diagnostics: Diagnostic[];
}

/**
 * Where sessions are kept, one store per workspace. Each turn is appended as it ends, so a
 * crash loses at most the turn in progress. The default is `FileSessionStore` (JSONL files in
 * the user's own directory); `MemorySessionStore` is for tests and servers; a database-backed
 * store implements the same four methods.
 */
export interface SessionStore {
  /** Append entries to a session (creating it); resolves once they are durable. */
  append(sessionId: string, entries: readonly SessionEntry[]): Promise<void>;
  /** A session's entries, or undefined when there is no such session. */
  load(sessionId: string): Promise<LoadedSession | undefined>;
  /** Every session of this store's workspace, the most recently updated first. */
  list(): Promise<SessionSummary[]>;
  /** Forget a session; false when there was none. */
  delete(sessionId: string): Promise<boolean>;
}

/** DI token for {@link SessionStore}: a plugin may register one in place of the default. */
export const SessionStore = Symbol.for("@pseudoclaude/core:SessionStore");

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Session ids become file names: letters, digits, `_` and `-` only, so none leads elsewhere. */
export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

/** A session id that could not be a file name is a usage error, in every store. */
export function checkSessionId(sessionId: string): void {
  if (!isSessionId(sessionId))
    throw new UsageError<UsageErrorCode>(
      "invalid_session_id",
      `"${sessionId}" is not a session id (letters, digits, "_" and "-", at most 128).`,
    );
}

/** The summary of a session's entries, as every store computes it. */
export function summarizeSession(id: string, entries: readonly SessionEntry[]): SessionSummary {
  const header = entries.find((entry) => entry.type === "session");
  const summary: SessionSummary = {
    id,
    workspace: header?.type === "session" ? header.workspace : "",
    created:
      header?.type === "session" ? header.created : ((entries[0] as { at?: string })?.at ?? ""),
    updated: "",
    turns: 0,
    tokens: { input: 0, output: 0 },
  };
  for (const entry of entries) {
    if (entry.type === "session") continue;
    summary.updated = entry.at;
    if (entry.type !== "turn") continue;
    summary.turns += entry.messages.filter((message) => message.role === "assistant").length;
    summary.tokens.input +=
      (entry.usage?.inputTokens ?? 0) +
      (entry.usage?.cacheReadTokens ?? 0) +
      (entry.usage?.cacheWriteTokens ?? 0);
    summary.tokens.output += entry.usage?.outputTokens ?? 0;
    if (summary.firstPrompt === undefined) {
      const prompt = entry.messages.find((message) => message.role === "user");
      if (prompt?.role === "user")
        summary.firstPrompt = (
          typeof prompt.content === "string"
            ? prompt.content
            : prompt.content.map((block) => (block.type === "text" ? block.text : "")).join(" ")
        ).slice(0, 200);
    }
  }
  summary.updated ||= summary.created;
  return summary;
}

/** Order of `list()`: the most recently updated session first. */
export function newestFirst(a: SessionSummary, b: SessionSummary): number {
  return a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0;
}
