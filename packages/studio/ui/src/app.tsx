import { useEffect, useState } from "preact/hooks";
import { post } from "./api.js";
import { McpPage } from "./pages/mcp-page.js";
import { PromptPage } from "./pages/prompt-page.js";
import { RunPage } from "./pages/run-page.js";
import { SessionsPage } from "./pages/sessions-page.js";
import { SkillsPage } from "./pages/skills-page.js";
import { ToolsPage } from "./pages/tools-page.js";
import { TracesPage } from "./pages/traces-page.js";
import { Questions } from "./parts/questions.js";
import { agentInfo, connected, notice, notices, refreshAgent, refreshTools } from "./state.js";

const PAGES = {
  tools: { title: "Tools", view: ToolsPage },
  run: { title: "Run", view: RunPage },
  traces: { title: "Traces", view: TracesPage },
  sessions: { title: "Sessions", view: SessionsPage },
  mcp: { title: "MCP servers", view: McpPage },
  skills: { title: "Skills", view: SkillsPage },
  prompt: { title: "Prompt", view: PromptPage },
} as const;
type PageName = keyof typeof PAGES;

function pageFromHash(): PageName {
  const name = location.hash.replace(/^#\/?/, "").split("/")[0] ?? "";
  return name in PAGES ? (name as PageName) : "tools";
}

/** The frame of every page: the agent's header, the navigation, and questions waiting. */
export function App() {
  const [page, setPage] = useState<PageName>(pageFromHash());
  useEffect(() => {
    const onHash = () => setPage(pageFromHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const View = PAGES[page].view;
  const info = agentInfo.value;
  return (
    <div class="shell">
      <header class="top">
        <strong class="brand">PseudoClaude studio</strong>
        <span class="muted" title="workspace">
          {info?.workspace ?? "…"}
        </span>
        <span class="pill" title="model">
          {info?.provider ? `${info.provider} · ${info.model}` : "no model"}
        </span>
        <label class="mode">
          mode{" "}
          <select
            aria-label="permission mode"
            value={info?.mode ?? "default"}
            onChange={(event) => void switchMode((event.target as HTMLSelectElement).value)}
          >
            {(info?.modes ?? ["default"]).map((mode) => (
              <option key={mode} value={mode}>
                {mode}
              </option>
            ))}
          </select>
        </label>
        <span
          class={connected.value ? "dot live" : "dot"}
          title={connected.value ? "live" : "reconnecting"}
          data-testid="connection"
        />
      </header>
      <nav class="side">
        {(Object.keys(PAGES) as PageName[]).map((name) => (
          <a key={name} href={`#/${name}`} class={name === page ? "active" : ""}>
            {PAGES[name].title}
          </a>
        ))}
      </nav>
      <main class="content">
        <View />
      </main>
      <Questions />
      <div class="notices" aria-live="polite">
        {notices.value.map((text, index) => (
          <div key={`${index}-${text}`} class="notice">
            {text}
          </div>
        ))}
      </div>
    </div>
  );
}

async function switchMode(mode: string): Promise<void> {
  try {
    await post("/api/mode", { mode });
    await Promise.all([refreshAgent(), refreshTools()]);
  } catch (error) {
    notice((error as Error).message);
  }
}
