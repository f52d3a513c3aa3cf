import { useEffect, useMemo, useState } from "preact/hooks";
import { api } from "../api.js";
import { parseOtlpLines } from "../parts/otlp-lines.js";
import { formatMs } from "../parts/timeline.js";
import { notice, spansVersion } from "../state.js";
import type { StudioSpan } from "../types.js";

interface Row {
  span: StudioSpan;
  depth: number;
}

/** Traces as a waterfall: this studio's own spans, or a `--trace` file opened in the page. */
export function TracesPage() {
  const [live, setLive] = useState<StudioSpan[]>([]);
  const [recording, setRecording] = useState(true);
  const [file, setFile] = useState<{ name: string; spans: StudioSpan[] } | undefined>(undefined);
  const [traceId, setTraceId] = useState<string | undefined>(undefined);
  const [picked, setPicked] = useState<StudioSpan | undefined>(undefined);
  const version = spansVersion.value;

  useEffect(() => {
    void version;
    api<{ spans: StudioSpan[]; recording: boolean }>("/api/traces")
      .then((answer) => {
        setLive(answer.spans);
        setRecording(answer.recording);
      })
      .catch((error: Error) => notice(error.message));
  }, [version]);

  const spans = file?.spans ?? live;
  const traces = useMemo(() => groupTraces(spans), [spans]);
  const chosen = traceId && traces.has(traceId) ? traceId : [...traces.keys()].at(-1);
  const rows = useMemo(() => (chosen ? waterfall(traces.get(chosen) ?? []) : []), [traces, chosen]);
  const start = Math.min(...rows.map((row) => row.span.startMs));
  const end = Math.max(...rows.map((row) => row.span.endMs));
  const total = Math.max(end - start, 0.001);

  return (
    <div class="split">
      <section class="list-pane">
        <label class="file">
          Open a --trace file{" "}
          <input
            type="file"
            aria-label="trace file"
            accept=".jsonl,.json,.ndjson,application/json,text/plain"
            onChange={async (event) => {
              const input = event.target as HTMLInputElement;
              const chosenFile = input.files?.[0];
              if (!chosenFile) return;
              const { spans: read, problems } = parseOtlpLines(await chosenFile.text());
              for (const problem of problems.slice(0, 3)) notice(`${chosenFile.name} ${problem}`);
              setFile({ name: chosenFile.name, spans: read });
              setTraceId(undefined);
            }}
          />
        </label>
        {file ? (
          <button type="button" class="small" onClick={() => setFile(undefined)}>
            Back to this studio's spans
          </button>
        ) : null}
        <h3>{file ? file.name : "This studio"}</h3>
        {[...traces].reverse().map(([id, group]) => {
          const root = group.find(
            (span) => !group.some((other) => other.spanId === span.parentSpanId),
          );
          return (
            <button
              type="button"
              key={id}
              class={id === chosen ? "run-row active" : "run-row"}
              data-trace={id}
              onClick={() => setTraceId(id)}
            >
              {root?.name ?? id.slice(0, 8)} <span class="muted">{group.length} spans</span>
            </button>
          );
        })}
        {!recording && !file ? (
          <p class="muted" data-testid="not-recording">
            This studio records no spans: install @opentelemetry/sdk-trace-base where pseudoclaude
            is installed, and start it again. A --trace file still opens here.
          </p>
        ) : traces.size === 0 ? (
          <p class="muted">No spans yet: run something.</p>
        ) : null}
      </section>
      <section class="detail-pane">
        <div class="waterfall" data-testid="waterfall">
          {rows.map(({ span, depth }) => (
            <button
              type="button"
              key={span.spanId}
              class={`wf-row ${span.status}`}
              data-span={span.name}
              onClick={() => setPicked(span)}
            >
              <span class="wf-name" style={{ paddingLeft: `${depth * 14}px` }}>
                {span.name}
              </span>
              <span class="wf-track">
                <span
                  class="wf-bar"
                  style={{
                    left: `${((span.startMs - start) / total) * 100}%`,
                    width: `${Math.max(((span.endMs - span.startMs) / total) * 100, 0.4)}%`,
                  }}
                />
              </span>
              <span class="wf-ms">{formatMs(span.endMs - span.startMs)}</span>
            </button>
          ))}
        </div>
        {picked ? (
          <div class="span-detail">
            <h3>{picked.name}</h3>
            {picked.statusMessage ? <p class="field-error">{picked.statusMessage}</p> : null}
            <pre class="mono">{JSON.stringify(picked.attributes, null, 2)}</pre>
          </div>
        ) : null}
      </section>
    </div>
  );
}

function groupTraces(spans: readonly StudioSpan[]): Map<string, StudioSpan[]> {
  const traces = new Map<string, StudioSpan[]>();
  for (const span of [...spans].sort((a, b) => a.startMs - b.startMs))
    traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
  return traces;
}

/** Spans in tree order (each after its parent, children by start), with their depth. */
function waterfall(spans: readonly StudioSpan[]): Row[] {
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string, StudioSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : "";
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const rows: Row[] = [];
  const visit = (parent: string, depth: number) => {
    for (const span of children.get(parent) ?? []) {
      rows.push({ span, depth });
      visit(span.spanId, depth + 1);
    }
  };
  visit("", 0);
  return rows;
}
