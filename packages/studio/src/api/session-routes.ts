import { replaySession, type SessionStore } from "@pseudoclaude/core";
import { StudioHttpError, sendJson } from "../http-json.js";
import type { Route } from "../router.js";
import type { StudioContext } from "../studio-context.js";

/** The workspace's saved sessions: list, open (the whole log), resume in the studio, delete. */
export function sessionRoutes({ agent, runs, hub }: StudioContext): Route[] {
  const store = (): SessionStore => {
    if (!agent.sessionStore)
      throw new StudioHttpError(
        404,
        "no_session_store",
        "This agent keeps no sessions (createAgent was given no session store).",
      );
    return agent.sessionStore;
  };
  return [
    {
      method: "GET",
      path: "/api/sessions",
      async handle({ response }) {
        const sessions = agent.sessionStore ? await agent.sessionStore.list() : [];
        sendJson(response, 200, { sessions, current: agent.sessionId ?? null });
      },
    },
    {
      method: "GET",
      path: "/api/sessions/:id",
      async handle({ response, params }) {
        const loaded = await store().load(params.id ?? "");
        if (!loaded)
          throw new StudioHttpError(404, "session_not_found", `There is no session ${params.id}.`);
        // The entries as saved (turns, compaction notes, clears, task states) and the
        // conversation they replay to, which is what a resume continues from.
        sendJson(response, 200, {
          id: loaded.id,
          entries: loaded.entries,
          messages: replaySession(loaded.entries).messages,
          diagnostics: loaded.diagnostics,
        });
      },
    },
    {
      method: "POST",
      path: "/api/sessions/:id/resume",
      async handle({ response, params }) {
        if (runs.running())
          throw new StudioHttpError(409, "run_in_progress", "Cancel or finish the run first.");
        await agent.resumeSession(params.id ?? "");
        hub.publish({ type: "session", sessionId: agent.sessionId ?? null });
        sendJson(response, 200, {
          sessionId: agent.sessionId ?? null,
          messages: agent.conversation.length,
        });
      },
    },
    {
      method: "DELETE",
      path: "/api/sessions/:id",
      async handle({ response, params }) {
        if (params.id === agent.sessionId)
          throw new StudioHttpError(
            409,
            "session_in_use",
            "This is the studio's current session: resume another one before deleting it.",
          );
        const removed = await store().delete(params.id ?? "");
        if (!removed)
          throw new StudioHttpError(404, "session_not_found", `There is no session ${params.id}.`);
        sendJson(response, 200, { id: params.id, removed });
      },
    },
  ];
}
