import {
  type LoadedSession,
  type SessionEntry,
  type SessionStore,
  type SessionSummary,
  summarizeSession,
} from "@pseudoclaude/core";
import type { ObjectContext } from "@restatedev/restate-sdk";
import { ENTRIES_KEY } from "./state-keys.js";

/**
 * A session kept in its Restate virtual object's state: the same `SessionEntry` list a
 * `FileSessionStore` writes (one format, not two), so the conversation a durable run continues
 * is any worker's, and it can be read out and continued like any other session.
 */
export class ObjectSessionStore implements SessionStore {
  private appends = 0;

  constructor(
    private readonly ctx: ObjectContext,
    private readonly sessionId: string,
  ) {}

  async append(sessionId: string, entries: readonly SessionEntry[]): Promise<void> {
    this.check(sessionId);
    const old = (await this.ctx.get<SessionEntry[]>(ENTRIES_KEY)) ?? [];
    // Entries carry the time they were made, which differs on a replay: the list is recorded
    // as a step, so a replay writes exactly what the first execution wrote.
    const next = await this.ctx.run(`session-append-${++this.appends}`, async () => [
      ...old,
      ...entries,
    ]);
    this.ctx.set(ENTRIES_KEY, next);
  }

  async load(sessionId: string): Promise<LoadedSession | undefined> {
    this.check(sessionId);
    const entries = await this.ctx.get<SessionEntry[]>(ENTRIES_KEY);
    return entries ? { id: sessionId, entries, diagnostics: [] } : undefined;
  }

  async list(): Promise<SessionSummary[]> {
    const entries = await this.ctx.get<SessionEntry[]>(ENTRIES_KEY);
    return entries ? [summarizeSession(this.sessionId, entries)] : [];
  }

  async delete(sessionId: string): Promise<boolean> {
    this.check(sessionId);
    const had = (await this.ctx.get<SessionEntry[]>(ENTRIES_KEY)) !== null;
    this.ctx.clear(ENTRIES_KEY);
    return had;
  }

  private check(sessionId: string): void {
    if (sessionId !== this.sessionId)
      throw new Error(`This store holds session ${this.sessionId}, not ${sessionId}.`);
  }
}
