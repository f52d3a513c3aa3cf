import type { Diagnostic } from "../contracts/diagnostic.js";
import type { Message } from "../contracts/message.js";
import type { ProviderUsage } from "../contracts/provider.js";
import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolTaskUpdate } from "../contracts/tool-task.js";
import type { Conversation } from "../conversation/conversation.js";
import { errorMessage } from "../errors.js";
import type { SessionEntry, SessionStore } from "../session/session-store.js";
import type { ToolCallRecord } from "./agent.js";

/**
 * Writes one agent's conversation to its session as it grows: after each model turn, the
 * messages added since the last write (and the turn's usage). A clear of the conversation is
 * written before what follows it; a compaction is written as one entry. A write that fails is
 * reported and tried again with the next turn, so a full disk never ends a run.
 */
export class SessionRecorder {
  private persisted: number;
  /** Found tools already in the log. */
  private persistedFound: number;
  private generation: number;
  private started: boolean;
  /** Task updates written while calls run; a turn is written after them, never beside them. */
  private tasks: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: SessionStore,
    private sessionId: string,
    private readonly workspace: string,
    private readonly conversation: Conversation,
    private readonly report: (diagnostic: Diagnostic) => void,
    /** True for a session that already has entries (a resumed one). */
    started: boolean,
  ) {
    this.started = started;
    this.persisted = conversation.length;
    this.persistedFound = conversation.found.length;
    this.generation = conversation.generation;
  }

  get id(): string {
    return this.sessionId;
  }

  /** Follow another session from now on (a chat's `/resume`): its entries are the store's already. */
  switchTo(sessionId: string): void {
    this.sessionId = sessionId;
    this.started = true;
    this.persisted = this.conversation.length;
    this.persistedFound = this.conversation.found.length;
    this.generation = this.conversation.generation;
  }

  /**
   * A call's task moved on: one `task` entry, so `pseudoclaude tasks` can say what ran and how
   * it ended, even for a process that stopped while its task ran.
   */
  task(call: ToolCall, update: ToolTaskUpdate): void {
    const entry: SessionEntry = {
      type: "task",
      at: now(),
      callId: call.id,
      tool: call.name,
      taskId: update.taskId,
      status: update.status,
      ...(update.statusMessage !== undefined ? { statusMessage: update.statusMessage } : {}),
    };
    this.tasks = this.tasks.then(() => this.write([entry], this.persisted));
  }

  /** An inner call ended (a program's call): one `inner-call` entry. */
  innerCall(record: ToolCallRecord): void {
    const { result } = record;
    const entry: SessionEntry = {
      type: "inner-call",
      at: now(),
      parentCallId: record.parentId ?? "",
      callId: record.id,
      tool: record.name,
      arguments: record.arguments,
      verdict: record.decision.verdict,
      ...(record.approval ? { approval: record.approval } : {}),
      ok: result.ok,
      ...(result.ok ? {} : { error: result.error.code }),
    };
    this.tasks = this.tasks.then(() => this.write([entry], this.persisted));
  }

  /** Append what the conversation gained since the last write, as one turn. */
  async turn(usage?: ProviderUsage): Promise<void> {
    await this.tasks;
    const entries: SessionEntry[] = [];
    const cleared = this.conversation.generation !== this.generation;
    if (cleared) {
      entries.push({ type: "clear", at: now() });
      this.persisted = 0;
      this.persistedFound = 0;
    }
    const found = this.foundEntry(cleared);
    if (found) entries.push(found);
    const added = this.conversation.messages.slice(this.persisted);
    if (added.length > 0 || usage)
      entries.push({
        type: "turn",
        at: now(),
        messages: [...added],
        ...(usage && Object.keys(usage).length > 0 ? { usage } : {}),
      });
    await this.write(entries, this.conversation.length);
  }

  /**
   * Tools found since the last write; after a clear entry (which forgets found tools on
   * replay), every tool found since.
   */
  private foundEntry(afterClear: boolean): SessionEntry | undefined {
    const found = this.conversation.found;
    const from = afterClear ? 0 : this.persistedFound;
    if (found.length <= from) return undefined;
    return { type: "tools-found", at: now(), names: found.slice(from) };
  }

  /** The conversation was compacted into `messages` (already in place). */
  async compacted(messages: readonly Message[], tokensBefore: number, tokensAfter: number) {
    await this.tasks;
    const found = this.foundEntry(false);
    await this.write(
      [
        ...(found ? [found] : []),
        { type: "compaction", at: now(), messages: [...messages], tokensBefore, tokensAfter },
      ],
      this.conversation.length,
    );
  }

  private async write(entries: SessionEntry[], length: number): Promise<void> {
    if (entries.length === 0) return;
    const all: SessionEntry[] = this.started
      ? entries
      : [
          {
            type: "session",
            version: 1,
            id: this.sessionId,
            workspace: this.workspace,
            created: now(),
          },
          ...entries,
        ];
    try {
      await this.store.append(this.sessionId, all);
      this.started = true;
      this.persisted = length;
      if (entries.some((entry) => entry.type === "tools-found"))
        this.persistedFound = this.conversation.found.length;
      this.generation = this.conversation.generation;
    } catch (error) {
      this.report({
        stage: "session",
        severity: "error",
        code: "session_write_failed",
        item: this.sessionId,
        message: `Saving session ${this.sessionId} failed (${errorMessage(error)}); the run goes on and the next turn tries again.`,
      });
    }
  }
}

function now(): string {
  return new Date().toISOString();
}
