import { useEffect, useMemo, useState } from "preact/hooks";
import { post } from "../api.js";
import { Timeline } from "../parts/timeline.js";
import { buildTimeline } from "../parts/timeline-model.js";
import { agentInfo, loadRunEvents, notice, runEvents, runs } from "../state.js";
import type { RunEvent } from "../types.js";

/** A prompt box, the answer as it streams, and the run's live timeline. */
export function RunPage() {
  const [prompt, setPrompt] = useState("");
  const [schemaText, setSchemaText] = useState("");
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const list = [...runs.value].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const running = list.find((run) => run.state === "running" && run.id !== "direct");
  const shown = chosen ?? running?.id ?? list.find((run) => run.id !== "direct")?.id;
  const run = list.find((item) => item.id === shown);
  const events = shown ? runEvents.value[shown] : undefined;

  useEffect(() => {
    // A run that started before this page opened: its earlier events come from the server.
    if (shown && events === undefined) void loadRunEvents(shown);
  }, [shown, events]);

  const items = useMemo(() => buildTimeline(events ?? []), [events]);
  const answer = useMemo(() => finalText(events ?? []), [events]);

  async function send(event: Event) {
    event.preventDefault();
    const text = prompt.trim();
    if (!text) return;
    let outputSchema: unknown;
    if (schemaText.trim()) {
      try {
        outputSchema = JSON.parse(schemaText);
      } catch (error) {
        notice(`The output schema is not JSON: ${(error as Error).message}`);
        return;
      }
    }
    try {
      const started = await post<{ id: string }>("/api/runs", { prompt: text, outputSchema });
      setChosen(started.id);
      setPrompt("");
    } catch (error) {
      notice((error as Error).message);
    }
  }

  return (
    <div class="split">
      <section class="list-pane">
        <h3>Runs</h3>
        {list.map((item) => (
          <button
            type="button"
            key={item.id}
            class={item.id === shown ? "run-row active" : "run-row"}
            data-run={item.id}
            onClick={() => setChosen(item.id)}
          >
            <span class={`state ${item.state}`}>{item.state}</span> {item.prompt.slice(0, 60)}
          </button>
        ))}
      </section>
      <section class="detail-pane">
        <form class="prompt" onSubmit={send}>
          <textarea
            aria-label="prompt"
            rows={3}
            placeholder={
              agentInfo.value?.provider
                ? "Ask the agent…"
                : "No model: start the studio with --provider, --model or --script"
            }
            value={prompt}
            onInput={(event) => setPrompt((event.target as HTMLTextAreaElement).value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) void send(event);
            }}
          />
          <details>
            <summary>Structured output (a JSON Schema the answer must match)</summary>
            <textarea
              aria-label="output schema"
              class="mono"
              rows={4}
              placeholder='{"type": "object", "properties": {"date": {"type": "string"}}, "required": ["date"]}'
              value={schemaText}
              onInput={(event) => setSchemaText((event.target as HTMLTextAreaElement).value)}
            />
          </details>
          <div class="buttons">
            <button type="submit" class="primary" disabled={Boolean(running)}>
              Send
            </button>
            {running ? (
              <button
                type="button"
                class="danger"
                onClick={() =>
                  void post(`/api/runs/${running.id}/cancel`).catch((error: Error) =>
                    notice(error.message),
                  )
                }
              >
                Cancel turn
              </button>
            ) : null}
          </div>
        </form>
        {run ? (
          <article class="run" data-testid="run" data-state={run.state}>
            {run.fromApp ? (
              <p class="note" data-testid="from-app">
                Sent by the view of {run.fromApp}, as the person agreed
              </p>
            ) : null}
            <div class="bubble user">{run.prompt}</div>
            {(run.appContext ?? []).map((context) => (
              <pre class="summary" data-testid="app-context" key={context.app}>
                Context from the view of {context.app}: {context.text}
              </pre>
            ))}
            {answer ? (
              <div class="bubble assistant" data-testid="answer">
                {answer}
              </div>
            ) : null}
            {run.result?.output !== undefined ? (
              <div class="structured" data-testid="structured-output">
                <span class="kind">structured output, checked against the schema</span>
                <pre class="mono">{JSON.stringify(run.result.output, null, 2)}</pre>
              </div>
            ) : null}
            {run.error ? <p class="field-error">{run.error}</p> : null}
            <h3>
              Timeline <span class={`state ${run.state}`}>{run.state}</span>
            </h3>
            <Timeline items={items} ended={run?.state !== "running"} />
          </article>
        ) : (
          <p class="muted">No runs yet: send a prompt.</p>
        )}
      </section>
    </div>
  );
}

/** The text the agent itself (not a sub-agent) wrote in its last turn so far. */
function finalText(events: readonly RunEvent[]): string {
  let turn = -1;
  let text = "";
  for (const event of events) {
    if (!event || event.via || event.type !== "text-delta") continue;
    if (event.turn !== turn) {
      turn = event.turn as number;
      text = "";
    }
    text += event.text as string;
  }
  return text;
}
