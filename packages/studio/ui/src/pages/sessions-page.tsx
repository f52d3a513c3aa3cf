import type { ContentBlock, SessionEntry, SessionSummary } from "@pseudoclaude/core";
import type { Message } from "@pseudoclaude/core/provider";
import { useEffect, useState } from "preact/hooks";
import { api, post } from "../api.js";
import { agentInfo, notice, refreshAgent } from "../state.js";

/** A saved log entry and message, as the kernel writes them (types only). */
type Entry = SessionEntry;

/** Saved sessions: the list, one opened in full (compaction notes too), resume, delete. */
export function SessionsPage() {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [open, setOpen] = useState<{ id: string; entries: Entry[] } | undefined>(undefined);
  const reload = () =>
    api<{ sessions: SessionSummary[] }>("/api/sessions")
      .then((answer) =>
        setSessions([...answer.sessions].sort((a, b) => b.updated.localeCompare(a.updated))),
      )
      .catch((error: Error) => notice(error.message));
  useEffect(() => {
    void reload();
  }, []);
  const current = agentInfo.value?.sessionId;

  async function openSession(id: string) {
    try {
      const answer = await api<{ entries: Entry[] }>(`/api/sessions/${encodeURIComponent(id)}`);
      setOpen({ id, entries: answer.entries });
    } catch (error) {
      notice((error as Error).message);
    }
  }

  return (
    <div class="split">
      <section class="list-pane">
        <h3>Sessions</h3>
        {sessions.map((session) => (
          <button
            type="button"
            key={session.id}
            class={session.id === open?.id ? "run-row active" : "run-row"}
            data-session={session.id}
            onClick={() => void openSession(session.id)}
          >
            {session.id === current ? <span class="pill">current</span> : null}{" "}
            {session.firstPrompt?.slice(0, 50) ?? session.id.slice(0, 8)}
            <span class="muted">
              {" "}
              {session.turns} turns · {new Date(session.updated).toLocaleString()}
            </span>
          </button>
        ))}
        {sessions.length === 0 ? <p class="muted">No saved sessions.</p> : null}
      </section>
      <section class="detail-pane">
        {open ? (
          <article data-testid="transcript">
            <h2>Session {open.id.slice(0, 8)}</h2>
            <div class="buttons">
              <button
                type="button"
                class="primary"
                disabled={open.id === current}
                onClick={async () => {
                  try {
                    await post(`/api/sessions/${encodeURIComponent(open.id)}/resume`);
                    await refreshAgent();
                    notice(`Resumed session ${open.id}: the next run continues it.`);
                  } catch (error) {
                    notice((error as Error).message);
                  }
                }}
              >
                {open.id === current ? "This is the current session" : "Resume here"}
              </button>
              <button
                type="button"
                class="danger"
                disabled={open.id === current}
                onClick={async () => {
                  if (!window.confirm(`Delete session ${open.id}? This cannot be undone.`)) return;
                  try {
                    await api(`/api/sessions/${encodeURIComponent(open.id)}`, { method: "DELETE" });
                    setOpen(undefined);
                    await reload();
                  } catch (error) {
                    notice((error as Error).message);
                  }
                }}
              >
                Delete
              </button>
            </div>
            <Transcript entries={open.entries} />
          </article>
        ) : (
          <p class="muted">Open a session to read it.</p>
        )}
      </section>
    </div>
  );
}

function Transcript({ entries }: { entries: readonly Entry[] }) {
  return (
    <div class="transcript">
      {entries.map((entry, index) => {
        switch (entry.type) {
          case "turn":
            return entry.messages.map((message, at) => (
              <MessageView key={`${index}-${at}`} message={message} />
            ));
          case "compaction":
            return (
              <div key={index} class="note" data-testid="compaction-note">
                Compacted: {entry.tokensBefore} → {entry.tokensAfter} tokens; the conversation went
                on from {entry.messages.length} messages.
              </div>
            );
          case "clear":
            return (
              <div key={index} class="note">
                Cleared.
              </div>
            );
          case "task":
            return (
              <div key={index} class="note">
                Task of {entry.tool}: {entry.status} {entry.statusMessage ?? ""}
              </div>
            );
          default:
            return null;
        }
      })}
    </div>
  );
}

function MessageView({ message }: { message: Message }) {
  if (message.role === "user")
    return (
      <div class="bubble user">
        {typeof message.content === "string"
          ? message.content
          : message.content.map((block) => blockText(block)).join(" ")}
      </div>
    );
  if (message.role === "assistant")
    return (
      <div class="bubble assistant">
        {message.text}
        {message.toolCalls.map((call, index) => (
          <div key={index} class="muted">
            → {call.name} {JSON.stringify(call.arguments)}
          </div>
        ))}
      </div>
    );
  return (
    <div class={message.result.ok ? "bubble tool" : "bubble tool failed"}>
      <span class="kind">{message.toolName}</span>{" "}
      {message.result.content
        .map((block) => blockText(block))
        .join(" ")
        .slice(0, 400)}
    </div>
  );
}

function blockText(block: ContentBlock): string {
  return block.type === "text" ? block.text : `[${block.type}]`;
}
