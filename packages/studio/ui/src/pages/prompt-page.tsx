import { useEffect } from "preact/hooks";
import { agentInfo, notice, refreshAgent, tools } from "../state.js";

/** One section of the system prompt, as the builder heads it: `## title`, then `(from source)`. */
interface PromptSection {
  title: string;
  source: string;
}

const SECTION_HEAD = /^## (.+)\n\(from (.+)\)$/gm;

function sectionsOf(prompt: string): PromptSection[] {
  return [...prompt.matchAll(SECTION_HEAD)].map((match) => ({
    title: match[1] ?? "",
    source: match[2] ?? "",
  }));
}

/**
 * The system prompt as the next request sends it: its size in estimated tokens, which sections
 * it holds and where each comes from (the environment, each instruction file, the Skills index,
 * MCP servers' instructions), and the whole text.
 */
export function PromptPage() {
  // Tools change when an MCP server joins, and with it the server's instructions.
  const version = tools.value;
  useEffect(() => {
    void version;
    refreshAgent().catch((error: Error) => notice(error.message));
  }, [version]);
  const info = agentInfo.value;
  if (!info) return <p class="muted">Loading…</p>;
  const sections = sectionsOf(info.systemPrompt);
  return (
    <div>
      <h2>System prompt</h2>
      <p class="muted" data-testid="prompt-size">
        {info.systemPrompt.length.toLocaleString("en")} characters, about{" "}
        {info.systemPromptTokens.toLocaleString("en")} tokens (estimated), sent with every request.
      </p>
      {sections.length > 0 ? (
        <ol data-testid="prompt-sections">
          {sections.map((section) => (
            <li key={`${section.title}@${section.source}`}>
              <strong>{section.title}</strong> <span class="muted">{section.source}</span>
            </li>
          ))}
        </ol>
      ) : null}
      <pre class="summary" data-testid="system-prompt">
        {info.systemPrompt || "(no system prompt)"}
      </pre>
    </div>
  );
}
