import type { AgentEvents, ToolResult } from "@pseudoclaude/core";
import { CODE_TOOL_NAME } from "@pseudoclaude/plugin-code-mode";
import { type CliIo, writeLine } from "./cli-io.js";
import {
  callPrefix,
  compactArgs,
  compactionText,
  contentText,
  firstLine,
  programLines,
  subAgentPrefix,
  taskText,
  toolSearchText,
  truncate,
} from "./text-format.js";

/** What raises a run's events: an agent, or an emitter a durable run's events are replayed into. */
export interface AgentEventSource {
  on<E extends keyof AgentEvents>(event: E, listener: (...args: AgentEvents[E]) => void): unknown;
}

/**
 * The human view of a run: the model's text streams to stdout as it arrives; each tool
 * call, decision and result is one short line on stderr.
 */
export class RunRenderer {
  private stdoutAtLineStart = true;

  constructor(
    agent: AgentEventSource,
    private readonly io: CliIo,
  ) {
    agent.on("text-delta", ({ text, via }) => {
      // A sub-agent's text is its tool call's result, not the answer on stdout.
      if (text === "" || via) return;
      io.stdout.write(text);
      this.stdoutAtLineStart = text.endsWith("\n");
    });
    // Reasoning goes to stderr: stdout stays the answer alone, for pipes.
    agent.on("reasoning-delta", ({ text, via }) => {
      if (text !== "" && !via) io.stderr.write(text);
    });
    agent.on("tool-call-start", ({ call, via }) => {
      const prefix = callPrefix(via, call);
      // A program is shown as its source, its calls nested under it as they come.
      if (call.name === CODE_TOOL_NAME) {
        this.note(`${prefix}> ${call.name}`);
        for (const line of programLines(call, prefix)) this.note(line);
        return;
      }
      this.note(`${prefix}> ${call.name} ${compactArgs(call.arguments)}`);
    });
    agent.on("tool-decision", ({ call, decision, approval, via }) => {
      const verdict = approval ? `${decision.verdict} (${approval})` : decision.verdict;
      this.note(`${callPrefix(via, call)}  ${verdict}: ${decision.reason}`);
    });
    agent.on("tool-progress", ({ progress }) => {
      const total = progress.total !== undefined ? `/${progress.total}` : "";
      this.note(
        `  ... ${progress.progress}${total}${progress.message ? ` ${progress.message}` : ""}`,
      );
    });
    agent.on("tool-task", ({ task, via }) => {
      this.note(`${subAgentPrefix(via)}  ... ${taskText(task)}`);
    });
    agent.on("tool-call-end", ({ call, result, via }) => {
      this.note(`${callPrefix(via, call)}  ${call.name} -> ${summarize(result)}`);
    });
    agent.on("tool-search", (event) =>
      this.note(`${subAgentPrefix(event.via)}  ${toolSearchText(event)}`),
    );
    agent.on("compaction", (event) => this.note(compactionText(event)));
  }

  /** End the streamed text with a newline so the shell prompt starts on its own line. */
  finish(): void {
    if (!this.stdoutAtLineStart) this.io.stdout.write("\n");
    this.stdoutAtLineStart = true;
  }

  /** A line on stderr; first end any streamed text, or the two would share a terminal line. */
  note(line: string): void {
    this.finish();
    writeLine(this.io.stderr, line);
  }
}

function summarize(result: ToolResult): string {
  if (result.error)
    return `${result.error.code}: ${truncate(firstLine(result.error.message), 160)}`;
  return `ok: ${truncate(firstLine(contentText(result.content)), 160)}`;
}
