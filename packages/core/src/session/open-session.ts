import { randomUUID } from "node:crypto";
import { type DependencyContainer } from "tsyringe";
import type { AgentParts } from "../agent/default-agent.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import { FileSessionStore } from "./file-session-store.js";
import { loadSession } from "./load-session.js";
import { checkSessionId, SessionStore } from "./session-store.js";

/** The session's store, id and restored conversation (empty for a new session). */
export async function openSession(
  option: { id?: string | undefined; store?: SessionStore | undefined },
  container: DependencyContainer,
  workspace: string,
  homeDir: string | undefined,
  report: (diagnostic: Diagnostic) => void,
): Promise<NonNullable<AgentParts["session"]>> {
  const store =
    option.store ??
    (container.isRegistered(SessionStore, true)
      ? container.resolve<SessionStore>(SessionStore)
      : new FileSessionStore({ workspace, ...(homeDir ? { homeDir } : {}) }));
  const id = option.id ?? randomUUID();
  checkSessionId(id);
  const loaded = option.id ? await loadSession(store, id, report) : undefined;
  return {
    store,
    id,
    messages: loaded?.messages ?? [],
    found: loaded?.found ?? [],
    started: loaded !== undefined,
  };
}
