import { useMemo, useState } from "preact/hooks";
import { ApiError, post } from "../api.js";
import { AppFrame } from "../parts/app-frame.js";
import { ResultView } from "../parts/result-view.js";
import { SchemaForm } from "../parts/schema-form.js";
import { initialValue, pruneEmpty, validateForm } from "../parts/schema-values.js";
import { agentInfo, toolSearch, tools } from "../state.js";
import type { CallOutcome, ToolInfo, ToolSearchInfo } from "../types.js";

/** Every tool by source, one at a time in detail with a form to call it. */
export function ToolsPage() {
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const list = tools.value;
  const bySource = useMemo(() => {
    const groups = new Map<string, ToolInfo[]>();
    const needle = filter.trim().toLowerCase();
    for (const tool of list) {
      // The state is matched too: "deferred" or "found" lists those tools.
      if (
        needle &&
        !`${tool.name} ${tool.title ?? ""} ${tool.source} ${tool.state ?? ""}`
          .toLowerCase()
          .includes(needle)
      )
        continue;
      groups.set(tool.source, [...(groups.get(tool.source) ?? []), tool]);
    }
    return groups;
  }, [list, filter]);
  const sources = agentInfo.value?.sources ?? [];
  const tool = list.find((item) => item.name === selected);
  return (
    <div class="split">
      <section class="list-pane">
        <input
          type="search"
          placeholder="Filter tools"
          aria-label="filter tools"
          value={filter}
          onInput={(event) => setFilter((event.target as HTMLInputElement).value)}
        />
        {toolSearch.value ? <ToolSearchLine search={toolSearch.value} /> : null}
        {[...bySource].map(([source, group]) => {
          const status = sources.find((item) => item.id === source)?.status;
          return (
            <div class="group" key={source} data-source={source}>
              <h3>
                {source} <span class={`state ${status?.state ?? ""}`}>{status?.state ?? ""}</span>{" "}
                <span class="muted">{group.length}</span>
              </h3>
              {group.map((item) => (
                <button
                  type="button"
                  key={item.name}
                  class={item.name === selected ? "tool-row active" : "tool-row"}
                  data-tool={item.name}
                  data-state={item.state ?? "none"}
                  onClick={() => setSelected(item.name)}
                >
                  <ToolIcon tool={item} />
                  <span class="name">{item.name}</span>
                  {item.state === "deferred" || item.state === "found" ? (
                    <span class={`tool-state ${item.state}`}>{item.state}</span>
                  ) : null}
                  <span class={`verdict ${item.decision.verdict}`}>{item.decision.verdict}</span>
                </button>
              ))}
            </div>
          );
        })}
        {list.length === 0 ? <p class="muted">No tools yet.</p> : null}
      </section>
      <section class="detail-pane">
        {tool ? <ToolDetail key={tool.name} tool={tool} /> : <p class="muted">Pick a tool.</p>}
      </section>
    </div>
  );
}

/** Who searches the deferred tools, how many there are, and what the definitions sent cost. */
function ToolSearchLine({ search }: { search: ToolSearchInfo }) {
  const sent = search.tokens.sent.toLocaleString("en-US");
  return (
    <p class="tool-search" data-testid="tool-search-summary" data-engine={search.engine}>
      {search.engine === "none"
        ? `tool search: none · ~${sent} tokens of definitions sent`
        : `tool search: ${search.engine} · ${search.deferred} deferred · ${search.found} found · ~${sent} of ~${search.tokens.all.toLocaleString("en-US")} tokens sent`}
      <span class="hint">{search.reason}</span>
    </p>
  );
}

/** What a tool's state means for the model. */
const STATE_TEXT = {
  loaded: "loaded: its definition is sent on every request",
  deferred: "deferred: known to tool search only, until a search finds it",
  found: "found: a search loaded it for the rest of the conversation",
} as const;

function ToolIcon({ tool }: { tool: ToolInfo }) {
  // Only inline images: an icon on another host would be a request to the internet.
  const icon = tool.icons.find((item) => item.src.startsWith("data:image/"));
  return icon ? <img class="icon" alt="" src={icon.src} /> : <span class="icon blank" />;
}

function ToolDetail({ tool }: { tool: ToolInfo }) {
  const [value, setValue] = useState<unknown>(() => initialValue(tool.inputSchema));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<CallOutcome | undefined>(undefined);
  const [failure, setFailure] = useState("");
  const [busy, setBusy] = useState(false);
  const [showApp, setShowApp] = useState(false);
  const [calledWith, setCalledWith] = useState<Record<string, unknown>>({});
  /** Which call the outcome is of: a view is told of each call once. */
  const [calls, setCalls] = useState(0);

  async function call(event: Event) {
    event.preventDefault();
    const found = validateForm(tool.inputSchema, value);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setFailure("");
    setOutcome(undefined);
    try {
      const args = (pruneEmpty(value) ?? {}) as Record<string, unknown>;
      const answer = await post<CallOutcome>(`/api/tools/${encodeURIComponent(tool.name)}/call`, {
        arguments: args,
      });
      setCalledWith(args);
      setCalls((count) => count + 1);
      setOutcome(answer);
      if (tool.appUri) setShowApp(true);
    } catch (error) {
      setFailure(error instanceof ApiError ? `${error.code}: ${error.message}` : String(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article class="tool-detail" data-testid="tool-detail">
      <h2>
        <ToolIcon tool={tool} /> {tool.title ?? tool.name}
        {tool.title ? <code class="muted"> {tool.name}</code> : null}
      </h2>
      <p>{tool.description}</p>
      <dl class="facts">
        <dt>source</dt>
        <dd>{tool.source}</dd>
        <dt>safety</dt>
        <dd>{tool.safety}</dd>
        <dt>policy now</dt>
        <dd>
          <span class={`verdict ${tool.decision.verdict}`} data-testid="decision">
            {tool.decision.verdict}
          </span>{" "}
          {tool.decision.reason}
          <span class="hint"> (for a call with no arguments; rules on arguments may differ)</span>
        </dd>
        <dt>offered to the model</dt>
        <dd>{tool.offered ? "yes" : "no"}</dd>
        {tool.state ? (
          <>
            <dt>tool search</dt>
            <dd data-testid="tool-state">{STATE_TEXT[tool.state]}</dd>
          </>
        ) : null}
        {tool.aliases.length > 0 ? (
          <>
            <dt>also known as</dt>
            <dd>{tool.aliases.join(", ")}</dd>
          </>
        ) : null}
        <dt>calls</dt>
        <dd>
          {tool.stats
            ? `${tool.stats.calls} run, ${tool.stats.errors} failed, ${tool.stats.denied} denied, ${Math.round(tool.stats.totalMs)} ms in all`
            : "none yet"}
        </dd>
        {tool.appUri ? (
          <>
            <dt>MCP App</dt>
            <dd>
              <code>{tool.appUri}</code>
            </dd>
          </>
        ) : null}
      </dl>
      {tool.diagnostics.length > 0 ? (
        <ul class="diagnostics">
          {tool.diagnostics.map((diagnostic, index) => (
            <li key={index} class={diagnostic.severity}>
              {diagnostic.file
                ? `${diagnostic.file}${diagnostic.line ? `:${diagnostic.line}` : ""}${diagnostic.column ? `:${diagnostic.column}` : ""}: `
                : ""}
              {diagnostic.message}
            </li>
          ))}
        </ul>
      ) : null}
      <form class="call-form" onSubmit={call} noValidate>
        <SchemaForm
          schema={tool.inputSchema}
          value={value}
          errors={errors}
          onChange={(next) => {
            setValue(next);
            if (Object.keys(errors).length > 0) setErrors(validateForm(tool.inputSchema, next));
          }}
        />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? "Calling…" : `Call ${tool.name}`}
        </button>
      </form>
      {failure ? <p class="field-error">{failure}</p> : null}
      {outcome ? (
        <section class="outcome" data-testid="outcome">
          <p>
            Policy:{" "}
            <span class={`verdict ${outcome.decision.verdict}`}>{outcome.decision.verdict}</span>{" "}
            {outcome.decision.reason}
            {outcome.approval ? <span class="pill">{outcome.approval}</span> : null}
          </p>
          <div class={showApp ? "with-app" : ""}>
            {showApp && tool.appUri ? (
              <AppFrame
                tool={tool.name}
                call={{ id: String(calls), input: calledWith, result: outcome.result }}
              />
            ) : null}
            <ResultView result={outcome.result} />
          </div>
        </section>
      ) : null}
      <details>
        <summary>input schema</summary>
        <pre class="mono">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
      </details>
    </article>
  );
}
