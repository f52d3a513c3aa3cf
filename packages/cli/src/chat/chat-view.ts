import type { Agent, ToolResult } from "@pseudoclaude/core";
import ora, { type Ora } from "ora";
import { createColors } from "picocolors";
import { type TextSink, writeLine } from "../cli-io.js";
import {
  compactArgs,
  compactionText,
  contentText,
  firstLine,
  subAgentPrefix,
  taskText,
  truncate,
} from "../format.js";
import { usageToJson } from "../output.js";

/** Whether to colour: a terminal, and no `NO_COLOR` (https://no-color.org). */
export function wantsColour(sink: TextSink, env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    Boolean(sink.isTTY) &&
    (env.NO_COLOR === undefined || env.NO_COLOR === "") &&
    env.TERM !== "dumb"
  );
}

/**
 * The chat for people: the model's text streamed as it comes, its reasoning dimmed, each tool
 * call on a line when it starts and a line when it ends (decision, duration, a one-line
 * result), the usage of every exchange, and notes (servers joining, cancellations). Colours
 * come from picocolors and the waiting spinner from ora, both only on a terminal and never
 * with `NO_COLOR`, so piped output holds no control codes.
 */
export class ChatView {
  private atLineStart = true;
  private readonly started = new Map<string, number>();
  private readonly colour: ReturnType<typeof createColors>;
  private spinner: Ora | undefined;

  constructor(
    agent: Agent,
    private readonly out: TextSink,
    err: TextSink,
  ) {
    const coloured = wantsColour(out);
    this.colour = createColors(coloured);
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
      this.stopSpinner();
      if (text === "") return;
      this.out.write(text);
      this.atLineStart = text.endsWith("\n");
    });
    agent.on("reasoning-delta", ({ text, via }) => {
      if (via) return;
      this.stopSpinner();
      if (text === "") return;
      this.out.write(this.colour.dim(text));
      this.atLineStart = text.endsWith("\n");
    });
    agent.on("tool-call-start", ({ call, via }) => {
      this.stopSpinner();
      this.started.set(call.id, performance.now());
      this.line(
        `${subAgentPrefix(via)}${this.colour.cyan("●")} ${this.colour.bold(call.name)} ${this.colour.dim(compactArgs(call.arguments, 100))}`,
      );
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
    agent.on("tool-call-end", ({ call, record, result, via }) => {
      const began = this.started.get(call.id);
      this.started.delete(call.id);
      const duration = began === undefined ? "" : ` · ${Math.round(performance.now() - began)} ms`;
      const verdict = record.approval
        ? `${record.decision.verdict}, ${record.approval}`
        : record.decision.verdict;
      const outcome = summarize(result);
      const painted = result.ok ? this.colour.green(outcome) : this.colour.red(outcome);
      this.line(
        `${subAgentPrefix(via)}  ${this.colour.dim("⎿")} ${verdict}${duration} · ${painted}`,
      );
    });
    agent.on("turn-end", ({ via }) => {
      if (!via) this.stopSpinner();
    });
    agent.on("compaction", (event) => this.note(compactionText(event)));
    agent.on("run-end", (result) => {
      if (result.via) return;
      this.stopSpinner();
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
    if (!this.atLineStart) this.out.write("\n");
    this.atLineStart = true;
    writeLine(this.out, text);
  }

  note(text: string): void {
    this.line(this.colour.yellow(text));
  }

  error(text: string): void {
    this.stopSpinner();
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

function summarize(result: ToolResult): string {
  if (!result.ok) return `${result.error.code}: ${truncate(firstLine(result.error.message), 140)}`;
  return `ok: ${truncate(firstLine(contentText(result.content)), 140)}`;
}
