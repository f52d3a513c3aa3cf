import type { Agent } from "@pseudoclaude/core";
import type { TextSink } from "../cli-io.js";
import { ChatView } from "./chat-view.js";
import { JsonView } from "./json-view.js";

/** What the chat itself says, beside the agent's events: the same for people and programs. */
export interface ChatOutput {
  /** The prompt shown before each line the person types ("" for programs). */
  readonly prompt: string;
  /** A terminal's width, which tables are fitted to; undefined for programs and pipes. */
  readonly width?: number | undefined;
  ready(fields: {
    provider: string;
    model: string;
    mode: string;
    workspace: string;
    tools: number;
    bySource: Record<string, number>;
    connecting: number;
    sessionId: string;
  }): void;
  sourceReady(source: string, tools: number, ready: number, of: number): void;
  note(text: string): void;
  error(code: string, message: string): void;
  command(name: string, output: string): void;
  exit(reason: string): void;
}

/** Output for people: a header, notes and command text through the ChatView. */
export function humanOutput(
  agent: Agent,
  out: TextSink,
  err: TextSink,
  /** True while a question waits at the prompt (see ChatView). */
  asking?: () => boolean,
  /** The Markdown renderer for the model's answers; none: shown as typed. */
  markdown?: (markdown: string) => string,
): ChatOutput {
  const view = new ChatView(agent, out, err, asking, markdown);
  return {
    get prompt() {
      return view.prompt();
    },
    width: out.isTTY ? out.columns : undefined,
    ready({ provider, model, mode, workspace, tools, bySource, connecting }) {
      view.print(`PseudoClaude chat · ${provider} (${model}) · mode ${mode} · ${workspace}`);
      const sources = Object.entries(bySource)
        .map(([source, count]) => `${source} ${count}`)
        .join(", ");
      view.print(
        `${tools} tools ready (${sources || "none"})${connecting > 0 ? `; connecting ${connecting} MCP server${connecting === 1 ? "" : "s"}, they join when ready` : ""}.`,
      );
      view.print("Type a message, or /help. Ctrl-C cancels a turn; Ctrl-C twice or Ctrl-D exits.");
    },
    sourceReady(source, tools, ready, of) {
      view.note(
        `${source} is ready: ${tools} tool${tools === 1 ? "" : "s"} joined (${ready}/${of} MCP servers ready).`,
      );
    },
    note: (text) => view.note(text),
    error: (code, message) => view.error(`error (${code}): ${message}`),
    command: (_name, output) => view.print(output),
    exit: () => {
      view.close();
      view.print("Bye.");
    },
  };
}

/** Output for programs: one JSON object per line. */
export function jsonOutput(agent: Agent, out: TextSink): ChatOutput {
  const view = new JsonView(agent, out);
  return {
    prompt: "",
    ready: (fields) =>
      view.emit("ready", {
        provider: fields.provider,
        model: fields.model,
        mode: fields.mode,
        workspace: fields.workspace,
        tools: fields.tools,
        by_source: fields.bySource,
        connecting: fields.connecting,
        session_id: fields.sessionId,
      }),
    sourceReady: (source, tools, ready, of) =>
      view.emit("source-ready", { source, tools, ready, of }),
    note: (text) => view.emit("note", { text }),
    error: (code, message) => view.emit("error", { error: { code, message } }),
    command: (name, output) => view.emit("command", { name, output }),
    exit: (reason) => view.emit("exit", { reason }),
  };
}
