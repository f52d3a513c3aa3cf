import type { SessionRules } from "@pseudoclaude/core";
import { type Agent, PseudoClaudeError } from "@pseudoclaude/core";
import { errorMessage } from "@pseudoclaude/core/plugin";
import { explainNoProvider } from "../no-provider.js";
import { loginFromChat } from "./chat-login.js";
import type { ChatOutput } from "./chat-output.js";
import { listPromptsFromChat, promptFromChat } from "./chat-prompts.js";
import { resumeFromChat } from "./chat-resume.js";
import type { LineInput } from "./line-input.js";
import { runSlashCommand } from "./slash-commands.js";

/** Two Ctrl-C within this long, with no turn running, end the session. */
const DOUBLE_INTERRUPT_MS = 2_000;

/**
 * The conversation: read a line, run it as a turn (or a slash command), repeat until `/exit`,
 * Ctrl-D, the end of piped input, or two Ctrl-C. A Ctrl-C during a turn cancels that turn and
 * its tool calls in flight (MCP servers are told), and the session goes on.
 */
export class ChatLoop {
  private turn: AbortController | undefined;
  private lastInterrupt = 0;
  private exitRequested = false;
  private input: LineInput | undefined;

  constructor(
    private readonly agent: Agent,
    private readonly output: ChatOutput,
    private readonly rules: SessionRules,
    private readonly maxTurns: number | undefined,
  ) {}

  /** Ctrl-C, from readline (a terminal) or the process (a pipe). */
  interrupt(input: LineInput): boolean {
    if (this.turn) {
      this.turn.abort(new Error("cancelled with Ctrl-C"));
      this.output.note("Cancelling this turn (Ctrl-C); the session goes on.");
      return true;
    }
    const now = Date.now();
    if (now - this.lastInterrupt < DOUBLE_INTERRUPT_MS) {
      this.exitRequested = true;
      input.close();
      return true;
    }
    this.lastInterrupt = now;
    this.output.note("Press Ctrl-C again or Ctrl-D to exit.");
    return true;
  }

  async run(input: LineInput): Promise<string> {
    this.input = input;
    for (;;) {
      if (this.exitRequested) return "interrupt";
      const line = await input.next(this.output.prompt);
      if (line === undefined) return this.exitRequested ? "interrupt" : "end of input";
      const text = line.trim();
      if (text === "") continue;
      if (text.startsWith("/")) {
        const outcome = await this.slash(text);
        if (outcome === "exit") return "exit";
        continue;
      }
      await this.exchange(text);
    }
  }

  private async slash(text: string): Promise<"exit" | undefined> {
    const [word = "", ...args] = text.slice(1).trim().split(/\s+/);
    if (word.toLowerCase() === "login") {
      await this.cancellable("login_failed", "Login cancelled.", (signal) =>
        loginFromChat(this.agent, args, this.output, signal),
      );
      return undefined;
    }
    if (word.toLowerCase() === "compact") {
      await this.cancellable("compact_failed", "Compaction cancelled.", async (signal) => {
        const compaction = await this.agent.compact({ signal });
        // What it did was said by the compaction event already.
        this.output.command(
          "compact",
          compaction
            ? `${this.agent.conversation.length} messages now.`
            : "Nothing to compact: the conversation is too short.",
        );
      });
      return undefined;
    }
    if (word.toLowerCase() === "prompts") {
      await this.cancellable("prompts_failed", "Cancelled.", (signal) =>
        listPromptsFromChat(this.agent, this.output, signal),
      );
      return undefined;
    }
    if (word.toLowerCase() === "prompt") {
      let text: string | undefined;
      await this.cancellable("prompt_failed", "Cancelled.", async (signal) => {
        text = await promptFromChat(
          this.agent,
          args,
          (question, asked) => this.input?.ask(question, asked) ?? Promise.resolve(""),
          this.output,
          signal,
        );
      });
      if (text) {
        this.output.note(`Sending prompt ${args[1]} of ${args[0]} (${text.length} characters).`);
        await this.exchange(text);
      } else if (text === "") this.output.note("The prompt came back empty; nothing was sent.");
      return undefined;
    }
    if (word.toLowerCase() === "resume") {
      await this.cancellable("resume_failed", "Cancelled.", () =>
        resumeFromChat(this.agent, args[0], this.output),
      );
      return undefined;
    }
    try {
      const outcome = runSlashCommand(text, this.agent, this.rules, this.output.width);
      if (outcome.exit) return "exit";
      this.output.command(outcome.name, outcome.output);
    } catch (error) {
      this.output.error(
        PseudoClaudeError.is(error) ? error.code : "command_failed",
        errorMessage(error),
      );
    }
    return undefined;
  }

  private async exchange(text: string): Promise<void> {
    await this.cancellable("run_failed", "Turn cancelled.", async (signal) => {
      const result = await this.agent.run(text, {
        signal,
        ...(this.maxTurns !== undefined ? { maxTurns: this.maxTurns } : {}),
      });
      if (result.stopReason === "max_turns")
        this.output.note(`Stopped after ${result.turns} model turns without a final answer.`);
    });
  }

  /** Work that Ctrl-C cancels (a turn, a login): a failure is shown, never thrown. */
  private async cancellable(
    failureCode: string,
    cancelledNote: string,
    work: (signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    const controller = new AbortController();
    this.turn = controller;
    try {
      await work(controller.signal);
    } catch (caught) {
      // A message typed before any provider was chosen is answered with how to choose one.
      const error = explainNoProvider(caught);
      if (controller.signal.aborted) this.output.note(cancelledNote);
      else
        this.output.error(
          PseudoClaudeError.is(error) ? error.code : failureCode,
          errorMessage(error),
        );
    } finally {
      this.turn = undefined;
    }
  }
}
