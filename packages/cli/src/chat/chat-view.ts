import type { Agent, SubAgentTag, ToolResult } from "@pseudoclaude/core";
import type { ToolCall } from "@pseudoclaude/core/plugin";
import { CODE_TOOL_NAME } from "@pseudoclaude/plugin-code-mode";
import ora, { type Ora } from "ora";
import { createColors } from "picocolors";
import { type TextSink, writeLine } from "../cli-io.js";
import { usageToJson } from "../json-output.js";
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
} from "../text-format.js";
import { MarkdownStream } from "./markdown-stream.js";
import { RunningToolsLine } from "./running-tools-line.js";

/** Whether to colour: a terminal, and no `NO_COLOR` (https://no-color.org). */
export function wantsColour(sink: TextSink, env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    Boolean(sink.isTTY) &&
    (env.NO_COLOR === undefined || env.NO_COLOR === "") &&
    env.TERM !== "dumb"
  );
}

/**
 * The chat for people: the model's text streamed as it comes (its Markdown rendered a block at
 * a time on a terminal, as typed elsewhere), its reasoning dimmed, each tool
 * call on a line when it starts and a line when it ends (decision, duration, a one-line
 * result), the usage of every exchange, and notes (servers joining, cancellations). Colours
 * come from picocolors and the waiting spinner from ora, both only on a terminal and never
 * with `NO_COLOR`, so piped output holds no control codes.
 */
export class ChatView {
  private atLineStart = true;
  private readonly started = new Map<string, number>();
  /** Each decided call's verdict as its result line says it (`ask, approved`). */
  private readonly verdicts = new Map<string, string>();
  /** How long the person took to approve each call that was asked about. */
  private readonly waited = new Map<string, number>();
  /** When each call was decided: a refused call's time ends there, not at the turn's end. */
  private readonly decided = new Map<string, number>();
  /** Calls whose result line was written when they ended, before the turn's end. */
  private readonly shown = new Set<string>();
  private readonly colour: ReturnType<typeof createColors>;
  private readonly running: RunningToolsLine;
  private spinner: Ora | undefined;
  /** The model's answer on its way to the screen, a block at a time. */
  private readonly markdown: MarkdownStream;

  constructor(
    agent: Agent,
    private readonly out: TextSink,
    err: TextSink,
    /** True while the chat waits for an answer at its prompt: the running line keeps still. */
    asking?: () => boolean,
    /** Renders the model's Markdown (on a terminal); without it answers show as typed. */
    markdown?: (markdown: string) => string,
  ) {
    this.running = new RunningToolsLine(out, asking);
    const coloured = wantsColour(out);
    this.colour = createColors(coloured);
    this.markdown = new MarkdownStream(coloured ? markdown : undefined);
    const spinning = coloured && wantsColour(err);
    const wait = () => {
      if (!spinning) return;
      this.spinner = ora({
        text: "thinking…",
        stream: err as NodeJS.WritableStream,
        // ora would otherwise take stdin over (and swallow Ctrl-C): readline owns it.
        discardStdin: false,
      }).start();
    };
    // A sub-agent's turns and text stay inside its tool call; its tool calls show, indented.
    agent.on("turn-start", ({ via }) => {
      if (!via) wait();
    });
    agent.on("text-delta", ({ text, via }) => {
      if (via) return;
      const shown = this.markdown.push(text);
      if (shown === "") return;
      this.stopSpinner();
      this.running.hide();
      this.out.write(shown);
      this.atLineStart = shown.endsWith("\n");
    });
    agent.on("reasoning-delta", ({ text, via }) => {
      if (via) return;
      this.stopSpinner();
      if (text === "") return;
      this.running.hide();
      this.out.write(this.colour.dim(text));
      this.atLineStart = text.endsWith("\n");
    });
    agent.on("tool-call-start", ({ call, via }) => {
      this.stopSpinner();
      // A refused call's line says how long deciding took, from here to its decision.
      this.started.set(call.id, performance.now());
      const prefix = callPrefix(via, call);
      const program = call.name === CODE_TOOL_NAME;
      this.line(
        `${prefix}${this.colour.cyan("●")} ${this.colour.bold(call.name)}${program ? "" : ` ${this.colour.dim(compactArgs(call.arguments, 100))}`}`,
      );
      if (program) for (const line of programLines(call, prefix)) this.line(this.colour.dim(line));
    });
    agent.on("tool-decision", ({ call, decision, approval, waitedMs }) => {
      this.verdicts.set(call.id, approval ? `${decision.verdict}, ${approval}` : decision.verdict);
      this.decided.set(call.id, performance.now());
      if (waitedMs !== undefined) this.waited.set(call.id, waitedMs);
    });
    // The clock of a call starts when it runs, not when the model asked for it: the time a
    // person takes to approve it is reported apart, on its result line.
    agent.on("tool-run-start", ({ call, via }) => {
      this.running.start(call.id, `${callPrefix(via, call)}${call.name}`);
    });
    agent.on("tool-run-end", ({ call, result, durationMs, via }) => {
      this.running.end(call.id);
      this.shown.add(call.id);
      this.result(call, this.verdicts.get(call.id) ?? "allow", durationMs, result, via);
    });
    agent.on("tool-progress", ({ progress }) => {
      const total = progress.total !== undefined ? `/${progress.total}` : "";
      this.line(
        this.colour.dim(
          `  … ${progress.progress}${total}${progress.message ? ` ${progress.message}` : ""}`,
        ),
      );
    });
    agent.on("tool-task", ({ task, via }) => {
      this.line(this.colour.dim(`${subAgentPrefix(via)}  … ${taskText(task)}`));
    });
    // Which tools a search loaded: the search tool's own result line says it to the model, and
    // the provider's own search has no call line at all.
    agent.on("tool-search", (event) => {
      this.stopSpinner();
      this.line(`${subAgentPrefix(event.via)}  ${this.colour.cyan("⌕")} ${toolSearchText(event)}`);
    });
    // A call that ran was shown when it ended; one that was refused (denied, unknown, bad
    // arguments) never ran, and is shown here (after the turn's other calls), with the time
    // its decision took: an unknown tool is refused at once, before any decision.
    agent.on("tool-call-end", ({ call, record, result, via }) => {
      const began = this.started.get(call.id);
      const decided = this.decided.get(call.id);
      this.started.delete(call.id);
      this.decided.delete(call.id);
      this.verdicts.delete(call.id);
      if (this.shown.delete(call.id)) return;
      const verdict = record.approval
        ? `${record.decision.verdict}, ${record.approval}`
        : record.decision.verdict;
      const took =
        began === undefined || decided === undefined
          ? 0
          : Math.max(0, decided - began - (this.waited.get(call.id) ?? 0));
      this.result(call, verdict, took, result, via);
    });
    agent.on("turn-end", ({ via }) => {
      if (via) return;
      this.stopSpinner();
      this.showHeld();
    });
    agent.on("compaction", (event) => this.note(compactionText(event)));
    agent.on("run-end", (result) => {
      if (result.via) return;
      this.stopSpinner();
      // Every call has ended by now; a clock left by one that never said so would tick on.
      this.running.close();
      const usage = Object.entries(usageToJson(result.usage))
        .map(([counter, value]) => `${counter.replace(/_tokens$/, "").replace(/_/g, " ")} ${value}`)
        .join(" · ");
      const turns = `${result.turns} model turn${result.turns === 1 ? "" : "s"}`;
      this.line(
        this.colour.dim(
          `(${turns}${usage ? ` · ${usage} tokens` : ""}${result.stopReason === "end_turn" ? "" : ` · ${result.stopReason}`})`,
        ),
      );
    });
  }

  /** A line of its own; streamed text is ended first so the two never share a line. */
  line(text: string): void {
    this.showHeld();
    this.running.hide();
    if (!this.atLineStart) this.out.write("\n");
    this.atLineStart = true;
    writeLine(this.out, text);
    this.running.show();
  }

  /** What is held of the answer, shown now (its turn ended, or a line must follow it). */
  private showHeld(): void {
    const rest = this.markdown.flush();
    if (rest === "") return;
    this.running.hide();
    this.out.write(rest);
    this.atLineStart = rest.endsWith("\n");
  }

  /** The chat ends: the running line's clock stops. */
  close(): void {
    this.running.close();
  }

  /**
   * One call's result line, as soon as the call ends: its name (calls of one turn may end in
   * any order, so the line must say which), the person's approval wait if any, then the
   * verdict, the call's own duration and the first line of its result.
   */
  private result(
    call: ToolCall,
    verdict: string,
    durationMs: number,
    result: ToolResult,
    via: SubAgentTag | undefined,
  ): void {
    const waited = this.waited.get(call.id);
    this.waited.delete(call.id);
    // An answer given by a rule or --yes takes no one's time: only a real wait is worth a word.
    const wait =
      waited === undefined || waited < 100 ? "" : ` (waited ${seconds(waited)} for approval)`;
    const duration = ` · ${Math.round(durationMs)} ms`;
    const outcome = summarize(result);
    const painted = result.ok ? this.colour.green(outcome) : this.colour.red(outcome);
    this.line(
      `${callPrefix(via, call)}  ${this.colour.bold(call.name)}${this.colour.dim(wait)} ${this.colour.dim("⎿")} ${verdict}${duration} · ${painted}`,
    );
  }

  note(text: string): void {
    this.line(this.colour.yellow(text));
  }

  error(text: string): void {
    this.stopSpinner();
    // A turn that failed has no calls left running (see run-end).
    this.running.close();
    this.line(this.colour.red(text));
  }

  /** Text of a slash command, as it is. */
  print(text: string): void {
    this.line(text.replace(/\n$/, ""));
  }

  prompt(): string {
    return this.colour.bold("> ");
  }

  private stopSpinner(): void {
    this.spinner?.stop();
    this.spinner = undefined;
  }
}

/** `5.1s`: an approval wait is a person's time, tenths of a second are enough. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function summarize(result: ToolResult): string {
  if (!result.ok) return `${result.error.code}: ${truncate(firstLine(result.error.message), 140)}`;
  return `ok: ${truncate(firstLine(contentText(result.content)), 140)}`;
}
