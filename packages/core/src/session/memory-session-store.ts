import {
  checkSessionId,
  type LoadedSession,
  newestFirst,
  type SessionEntry,
  type SessionStore,
  type SessionSummary,
  summarizeSession,
} from "./session-store.js";

/** Sessions in memory, for tests and servers that keep them elsewhere; entries are copied. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionEntry[]>();

  async append(sessionId: string, entries: readonly SessionEntry[]): Promise<void> {
    checkSessionId(sessionId);
    const log = this.sessions.get(sessionId) ?? [];
    log.push(...structuredClone([...entries]));
    this.sessions.set(sessionId, log);
  }

  async load(sessionId: string): Promise<LoadedSession | undefined> {
    checkSessionId(sessionId);
    const log = this.sessions.get(sessionId);
    return log ? { id: sessionId, entries: structuredClone(log), diagnostics: [] } : undefined;
  }

  async list(): Promise<SessionSummary[]> {
    return [...this.sessions]
      .map(([id, entries]) => summarizeSession(id, entries))
      .sort(newestFirst);
  }

  async delete(sessionId: string): Promise<boolean> {
    checkSessionId(sessionId);
    return this.sessions.delete(sessionId);
  }
}
