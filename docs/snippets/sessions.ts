// The code of docs/sessions.md: compiled by CI, so the guide cannot go stale.
import {
  createAgent,
  MemorySessionStore,
  type SessionEntry,
  type SessionStore,
  type SessionSummary,
} from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";

// #region memory
const store = new MemorySessionStore(); // tests and servers; nothing on disk
const agent = await createAgent({
  config: false,
  session: { store }, // no id: a new session with a random id
  provider: new ScriptedProvider([{ text: "Hello." }]),
});
await agent.run("Hi");
console.log(agent.sessionId, (await store.list())[0]?.turns);
// #endregion
await agent.close();

// #region custom
// A store of your own (a database, a bucket) implements four methods.
class MyStore implements SessionStore {
  async append(sessionId: string, entries: readonly SessionEntry[]): Promise<void> {
    void sessionId;
    void entries; // write them durably, in order
  }
  async load(sessionId: string) {
    void sessionId;
    return undefined; // or { id, entries, diagnostics: [] }
  }
  async list(): Promise<SessionSummary[]> {
    return []; // summarizeSession(id, entries) of each, newest first
  }
  async delete(sessionId: string): Promise<boolean> {
    void sessionId;
    return false;
  }
}
// #endregion
void MyStore;
