import { tools } from "../state.js";
import { viewCall } from "./app-call.js";
import { AppFrame } from "./app-frame.js";
import type { CallItem, TimelineItem } from "./timeline-model.js";

/**
 * A run's timeline: model turns (with the tools each offered), tool calls (sub-agents nested),
 * tool searches, compactions, the end.
 */
export function Timeline({
  items,
  ended,
}: {
  items: readonly TimelineItem[];
  /** The run is over: a call with no result will have none. */
  ended: boolean;
}) {
  return (
    <ol class="timeline">
      {items.map((item, index) => (
        <Item
          key={item.kind === "call" ? item.id : `${item.kind}-${index}`}
          item={item}
          ended={ended}
        />
      ))}
    </ol>
  );
}

function Item({ item, ended }: { item: TimelineItem; ended: boolean }) {
  switch (item.kind) {
    case "turn":
      return (
        <li class="t-turn" data-turn={item.turn}>
          <div>
            <span class="kind">turn {item.turn}</span> ~{item.estimatedTokens} tokens sent
            {item.usage ? (
              <span class="usage">
                {" "}
                · in {item.usage.inputTokens} / out {item.usage.outputTokens} tokens
              </span>
            ) : (
              <span class="muted"> · waiting for the model…</span>
            )}
            {item.stopReason ? <span class="muted"> · {item.stopReason}</span> : null}
          </div>
          <TurnTools item={item} />
        </li>
      );
    case "call":
      return <Call item={item} ended={ended} />;
    case "compaction":
      return (
        <li class="t-compaction" data-testid="compaction">
          <span class="kind">compaction</span>{" "}
          {item.stage === "summary" ? "summarised" : "old results shortened"}: {item.tokensBefore} →{" "}
          {item.tokensAfter} tokens ({item.stubbed} results stubbed, {item.summarized} messages
          summarised)
        </li>
      );
    case "search":
      return (
        <li class="t-search" data-testid="tool-search">
          <span class="kind">tool search</span>{" "}
          {item.engine === "provider" ? "the provider searched" : "searched"}{" "}
          <code>{item.query}</code> →{" "}
          {item.found.length === 0 ? (
            "no new tools found"
          ) : (
            <>
              {item.found.length} found:{" "}
              {item.found.map((name, index) => (
                <span key={name}>
                  {index > 0 ? ", " : ""}
                  <code data-found={name}>{name}</code>
                </span>
              ))}
            </>
          )}
        </li>
      );
    case "repair":
      return (
        <li class="t-repair">
          <span class="kind">output repair</span> the answer missed the schema ({item.issues}{" "}
          issues)
        </li>
      );
    case "error":
      return (
        <li class="t-error">
          <span class="kind">error</span> {item.stage}: {item.message}
        </li>
      );
    case "end":
      return (
        <li class="t-end">
          <span class="kind">end</span> {item.stopReason} after {item.turns} turns
          {item.usage ? ` · ${item.usage.inputTokens} in / ${item.usage.outputTokens} out` : ""}
        </li>
      );
    default:
      return null;
  }
}

/**
 * How many tools a turn offered (their names open below), what their definitions cost, and how
 * many stayed deferred to search.
 */
function TurnTools({ item }: { item: Extract<TimelineItem, { kind: "turn" }> }) {
  return (
    <details class="turn-tools" data-testid="turn-tools">
      <summary>
        {item.tools} tools offered
        {item.toolTokens !== undefined ? (
          <span data-testid="turn-tool-tokens"> (~{item.toolTokens} tokens of definitions)</span>
        ) : null}
        {item.deferredTools > 0 ? (
          <span class="muted" data-testid="turn-deferred">
            {" "}
            · {item.deferredTools} deferred to {item.toolSearch} search
          </span>
        ) : null}
      </summary>
      <div class="tool-names">
        {item.toolNames.map((name) => (
          <code key={name}>{name}</code>
        ))}
      </div>
    </details>
  );
}

function Call({ item, ended }: { item: CallItem; ended: boolean }) {
  const state = item.ok === undefined ? "running" : item.ok ? "ok" : "failed";
  // A code-mode program is shown as its source, its calls under it.
  const code = (item.arguments as { code?: unknown } | null)?.code;
  const program = item.name === "code_mode" && typeof code === "string" ? code : undefined;
  return (
    <li class={`t-call ${state}`} data-call={item.id} data-tool={item.name}>
      <div>
        <span class="kind">call</span> <code>{item.name}</code>{" "}
        {program === undefined ? (
          <code class="muted args-inline">
            {item.arguments === undefined ? item.inputText : JSON.stringify(item.arguments)}
          </code>
        ) : null}
      </div>
      {program !== undefined ? (
        <pre class="summary" data-testid="program">
          {program}
        </pre>
      ) : null}
      <div class="call-facts">
        {item.verdict ? (
          <span class={`verdict ${item.verdict}`} title={item.reason} data-testid="call-verdict">
            {item.verdict}
          </span>
        ) : null}
        {item.approval ? <span class="pill">{item.approval}</span> : null}
        {item.waitedMs !== undefined ? (
          <span class="muted">waited {Math.round(item.waitedMs)} ms</span>
        ) : null}
        {item.durationMs !== undefined ? (
          <span class="duration" data-testid="duration">
            {formatMs(item.durationMs)}
          </span>
        ) : null}
        {item.progress ? <span class="muted">{item.progress}</span> : null}
        {item.task ? <span class="pill">task {item.task}</span> : null}
        <span class={`state ${state}`}>{state}</span>
      </div>
      {item.reason && item.verdict !== "allow" ? <div class="hint">{item.reason}</div> : null}
      {item.hooks?.length ? (
        <div class="hint" data-testid="hooks">
          hooks:{" "}
          {item.hooks
            .map(
              (hook) =>
                `${hook.hook} (${hook.stage}) ${hook.action}${hook.reason ? `: ${hook.reason}` : ""}`,
            )
            .join("; ")}
        </div>
      ) : null}
      {item.summary ? <pre class="summary">{item.summary}</pre> : null}
      {tools.value.some((tool) => tool.name === item.name && tool.appUri) ? (
        <AppFrame tool={item.name} call={viewCall(item, ended)} />
      ) : null}
      {item.children.length > 0 && item.subAgent !== undefined ? (
        <div class="sub-agent" data-testid="sub-agent">
          <div class="kind">sub-agent {item.subAgent}</div>
          <Timeline items={item.children} ended={ended} />
        </div>
      ) : null}
      {item.children.length > 0 && item.subAgent === undefined ? (
        <div class="sub-agent" data-testid="program-calls">
          <div class="kind">the program's calls</div>
          <Timeline items={item.children} ended={ended} />
        </div>
      ) : null}
    </li>
  );
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
