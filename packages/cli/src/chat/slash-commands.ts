import type { SessionRules } from "@pseudoclaude/core";
import {
  type Agent,
  formatDiagnostic,
  PERMISSION_MODES,
  type PermissionMode,
} from "@pseudoclaude/core";
import { type SkillInfo, SkillsManager } from "@pseudoclaude/plugin-skills";
import { renderSkills } from "../render-skills.js";
import { renderToolsReport } from "../render-tools.js";
import { suggestCommand } from "../suggestions.js";
import { toolSearchReport } from "../tool-search-report.js";

/** Every slash command's name, for suggestions (the chat loop handles some of them itself). */
const SLASH_NAMES = [
  "tools",
  "skills",
  "mode",
  "diagnostics",
  "login",
  "prompts",
  "prompt",
  "resume",
  "compact",
  "clear",
  "help",
  "exit",
];

export const SLASH_HELP = `/tools               the tools, whether the model is offered each, and how (loaded,
                     deferred to tool search, found)
/skills              the skills and their state
/mode <mode>         default | plan | accept-edits | bypass
/diagnostics         everything reported since start
/login [server]      log in to an MCP server behind OAuth; its tools join this session
/prompts             the MCP servers' prompts
/prompt S NAME [a=v] send server S's prompt NAME (asks for missing arguments; Tab completes)
/resume [id]         the saved sessions, or continue one of them here
/compact             shorten old tool results and summarise old turns now
/clear               start the conversation over
/help                this list
/exit                end the session (Ctrl-D too)`;

/** What a slash command did: text to show, and whether the session ends. */
export interface SlashOutcome {
  name: string;
  output: string;
  exit?: boolean;
}

/** Run one `/command`; an unknown one says what there is. */
export function runSlashCommand(
  line: string,
  agent: Agent,
  rules: SessionRules,
  /** The terminal's width, for tables; undefined: as wide as they are. */
  width?: number,
): SlashOutcome {
  const [word = "", ...rest] = line.slice(1).trim().split(/\s+/);
  const name = word.toLowerCase();
  const captured: string[] = [];
  const sink = {
    write: (chunk: string) => captured.push(chunk),
    isTTY: width !== undefined,
    columns: width,
  };
  switch (name) {
    case "exit":
    case "quit":
      return { name: "exit", output: "", exit: true };
    case "help":
      return { name, output: SLASH_HELP };
    case "tools": {
      // First: deciding the offer registers the search tool when tools are deferred.
      const search = toolSearchReport(agent.toolOffer());
      const offered = new Set(agent.offeredTools().map((tool) => tool.name));
      const tools = [...agent.registry.definitions()].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
      renderToolsReport(sink, tools, offered, agent.sources(), agent.diagnostics(), search);
      const allowed = rules.list();
      if (allowed.length > 0) captured.push(`Allowed for this session: ${allowed.join(", ")}\n`);
      return { name, output: captured.join("") };
    }
    case "skills": {
      let skills: readonly SkillInfo[] = [];
      try {
        skills = agent.resolve<SkillsManager>(SkillsManager).list();
      } catch {
        return { name, output: "The Skills plugin is not loaded." };
      }
      renderSkills(sink, skills, agent.workspace);
      return { name, output: captured.join("") };
    }
    case "mode": {
      const wanted = (rest[0] ?? "").replace(/-/g, "_");
      if (!wanted) return { name, output: `Mode: ${agent.mode} (modes: ${modesText()}).` };
      if (!(PERMISSION_MODES as readonly string[]).includes(wanted))
        return { name, output: `Unknown mode "${rest[0]}" (modes: ${modesText()}).` };
      agent.setMode(wanted as PermissionMode);
      return { name, output: `Mode: ${agent.mode}. ${agent.offeredTools().length} tools offered.` };
    }
    case "diagnostics": {
      const diagnostics = agent.diagnostics();
      return {
        name,
        output:
          diagnostics.length === 0
            ? "No diagnostics."
            : diagnostics.map((diagnostic) => formatDiagnostic(diagnostic)).join("\n"),
      };
    }
    case "clear":
      agent.conversation.clear();
      return { name, output: "Conversation cleared: the model starts over." };
    default: {
      const suggestion = suggestCommand(name, SLASH_NAMES);
      return {
        name: "unknown",
        output: `Unknown command "/${word}".${suggestion ? ` Did you mean /${suggestion}?` : ""} Commands:\n${SLASH_HELP}`,
      };
    }
  }
}

function modesText(): string {
  return PERMISSION_MODES.map((mode) => mode.replace(/_/g, "-")).join(", ");
}
