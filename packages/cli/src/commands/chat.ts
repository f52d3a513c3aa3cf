import { type LoadedConfig, SessionRules } from "@pseudoclaude/core";
import type { WorkspaceConsent } from "@pseudoclaude/core/consent";
import { askForWorkspaceRequests } from "../ask-workspace-requests.js";
import { chatApprover } from "../chat/chat-approver.js";
import { ChatLoop } from "../chat/chat-loop.js";
import { type ChatOutput, humanOutput, jsonOutput } from "../chat/chat-output.js";
import { promptCompleter } from "../chat/chat-prompts.js";
import { wantsColour } from "../chat/chat-view.js";
import { LineInput } from "../chat/line-input.js";
import { loadTerminalMarkdown } from "../chat/terminal-markdown.js";
import { withCliAgent } from "../cli-agent.js";
import { isInteractive } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { parsePositiveInteger } from "../flag-values.js";
import { noProviderHelp } from "../no-provider.js";
import { createProvider } from "../providers.js";

/** `pseudoclaude chat`: an interactive session, the way people use Claude Code. */
export const chatCommand: CommandSpec = {
  name: "chat",
  summary:
    "An interactive session: streamed answers, tool calls as they run, approvals at the prompt.",
  usage: `Usage: pseudoclaude chat [--provider NAME] [--model M] [--script FILE] [--mode M] [--yes]
                        [--trust-project] [--tool-search MODE] [--code-mode MODE]
                        [--system-prompt TEXT] [--append-system-prompt TEXT] [--no-instructions]
                        [--max-turns N] [--continue | --resume ID] [--trace FILE] [--json]
                        [--workspace DIR] [--plugin PATH]...

Talk to the agent: each line is a message; the answer streams, each tool call shows as it
starts and ends (decision, duration, result), and the usage of every exchange follows.
Servers connect in the background: the prompt is ready as soon as the local tools are, and
each MCP server joins with a note. A call the policy asks about is answered at the prompt:
y allows it once, a allows it for this session, n denies it (with a reason for the model).

  /tools /skills /mode <m> /diagnostics /login [server] /resume [id] /compact /clear /help /exit
  Ctrl-C cancels the running turn and its tool calls; Ctrl-C twice or Ctrl-D exits.

  --provider, --model, --script   as for run (--script plays a scripted model: offline)
  --mode M    default | plan | accept-edits | bypass      --yes   approve every ask
  --tool-search MODE   auto | always | never: when tool definitions are deferred to tool
              search (overrides the config); /tools shows each tool's state
  --code-mode MODE     off | on | auto: offer the code_mode tool, whose program calls
                       tools (each call decided as yours); overrides the config's code_mode
  --trust-project   consent to what the workspace's files ask for, this session only
  --system-prompt TEXT, --append-system-prompt TEXT, --no-instructions   as for run
  --continue  continue the workspace's latest session    --resume ID   continue session ID
  --trace FILE  append the session's OpenTelemetry spans to FILE (OTLP JSON lines)
  --json      one JSON event per line on stdout; lines of stdin are the messages

The conversation is saved as a session in ~/.PseudoClaude/sessions (pseudoclaude sessions).

At start, what the workspace's own files ask for that widens the agent (its MCP servers, hooks,
agent files, allow rules, a provider endpoint: docs/security.md) is listed with what each would
do, and asked once; the answer is remembered (pseudoclaude trust). Without a terminal nobody can
answer a question: ask is denied unless --yes, and what the workspace asks for stays off unless
approved or --trust-project.`,
  flags: [
    "provider",
    "model",
    "script",
    "mode",
    "tool-search",
    "code-mode",
    "system-prompt",
    "append-system-prompt",
    "no-instructions",
    "yes",
    "trust-project",
    "max-turns",
    "continue",
    "resume",
    "trace",
  ],
  positionals: { min: 0, max: 0, names: "" },
  run: runChat,
};

async function runChat({ flags, io }: CommandContext): Promise<number> {
  const maxTurns = parsePositiveInteger("max-turns", flags["max-turns"]);
  const interactive = isInteractive(io);
  const json = flags.json ?? false;
  const promptSink = (json ? io.stderr : io.stdout) as NodeJS.WritableStream;
  // The Markdown renderer loads while the agent starts, for people at a terminal only.
  const markdown =
    !json && wantsColour(io.stdout)
      ? loadTerminalMarkdown(io.stdout.columns ?? 80).catch(() => undefined)
      : undefined;
  let loop: ChatLoop | undefined;
  const input = new LineInput(io, () => loop?.interrupt(input), promptSink);
  const uninstall = io.onInterrupt?.(() => loop?.interrupt(input) ?? false);
  try {
    // --yes answers tool approvals only; --trust-project consents for this session.
    if (!flags["trust-project"])
      await askForWorkspaceRequests(flags, io, input, io.stdout, interactive);
    const rules = new SessionRules();
    const providerFlags = { cwd: io.cwd, model: flags.model, script: flags.script };
    return await withCliAgent(
      {
        flags,
        io,
        provider: (config: LoadedConfig, consent: WorkspaceConsent) =>
          createProvider(flags.provider, providerFlags, config, consent),
        prompter: input,
        approver: (callbacks) =>
          chatApprover(input, input.above(io.stdout), rules, callbacks.interactive, callbacks.yes),
        agent: { backgroundSources: (id) => id.startsWith("mcp:") },
        sessions: true,
        traced: true,
        systemPrompt: true,
      },
      async ({ agent, resumed }) => {
        const output: ChatOutput = json
          ? jsonOutput(agent, io.stdout)
          : humanOutput(
              agent,
              input.above(io.stdout),
              io.stderr,
              () => input.asking,
              await markdown,
            );
        announce(agent, output);
        // Slash commands work without a model; a message would fail, so say how to pick one now.
        if (!agent.provider) output.note(noProviderHelp(process.env));
        if (resumed)
          output.note(
            `Continuing session ${agent.sessionId} (${agent.conversation.length} messages).`,
          );
        loop = new ChatLoop(agent, output, rules, maxTurns);
        input.completeWith(promptCompleter(agent));
        const reason = await loop.run(input);
        output.exit(reason);
        return EXIT.ok;
      },
    );
  } finally {
    uninstall?.();
    input.close();
  }
}

/** The header, then a note as each MCP server that was still connecting joins. */
function announce(agent: import("@pseudoclaude/core").Agent, output: ChatOutput): void {
  const provider = agent.provider;
  const bySource: Record<string, number> = {};
  for (const tool of agent.registry.definitions())
    bySource[tool.source] = (bySource[tool.source] ?? 0) + 1;
  const servers = agent.sources().filter((source) => source.id.startsWith("mcp:"));
  const pending = new Set(
    servers
      .filter((source) => source.status.state === "starting" || source.status.state === "idle")
      .map((source) => source.id),
  );
  output.ready({
    provider: provider?.name ?? "none",
    model: provider?.model ?? "none",
    mode: agent.mode,
    workspace: agent.workspace,
    tools: agent.registry.definitions().length,
    bySource,
    connecting: pending.size,
    sessionId: agent.sessionId ?? "",
  });
  const readyCount = () =>
    agent
      .sources()
      .filter((source) => source.id.startsWith("mcp:") && source.status.state === "ready").length;
  agent.registry.on("changed", (change) => {
    if (!pending.has(change.source)) return;
    pending.delete(change.source);
    output.sourceReady(change.source, change.added.length, readyCount(), servers.length);
  });
  void agent.whenSourcesStarted().then(() => {
    for (const id of pending) {
      const state = agent.sources().find((source) => source.id === id)?.status.state;
      if (state === "needs-auth")
        output.note(
          `${id} needs you to log in: type /login ${id.slice("mcp:".length)} (or run pseudoclaude mcp login ${id.slice("mcp:".length)}).`,
        );
      else if (state !== "ready")
        output.note(`${id} did not start (${state}); /diagnostics says why.`);
    }
    pending.clear();
  });
}
