import type { LoadedConfig } from "@pseudoclaude/core";
import type { WorkspaceConsent } from "@pseudoclaude/core/consent";
import { askForWorkspaceRequests } from "../ask-workspace-requests.js";
import { withCliAgent } from "../cli-agent.js";
import { isInteractive, writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { parsePort } from "../flag-values.js";
import { noProviderHelp } from "../no-provider.js";
import { openBrowser } from "../open-browser.js";
import { importOptional, isMissingPackage } from "../optional-package.js";
import { ReadlinePrompter } from "../prompter.js";
import { createProvider } from "../providers.js";

/** `pseudoclaude studio`: the agent of `chat`, seen and driven in a local web page. */
export const studioCommand: CommandSpec = {
  name: "studio",
  summary: "A local web studio: tools, runs, approvals, traces, sessions, MCP servers and apps.",
  usage: `Usage: pseudoclaude studio [--port N] [--open] [--provider NAME] [--model M] [--script FILE]
                          [--mode M] [--tool-search MODE] [--code-mode MODE] [--trust-project]
                          [--system-prompt TEXT] [--append-system-prompt TEXT]
                          [--no-instructions] [--continue | --resume ID]
                          [--workspace DIR] [--plugin PATH]...

Serves a web page on 127.0.0.1 for the same agent chat would start (workspace, config,
consent, policy): every tool with its policy decision and a form to call it, runs streamed as
a timeline, approvals and servers' questions answered in the page, traces as a waterfall,
sessions, MCP servers with their resources and prompts, Skills, and MCP Apps rendered in a
sandboxed frame. Ctrl-C stops it.

The address printed carries a token that is new at every start: the studio refuses any
request without it, answers only on 127.0.0.1, and nothing it serves comes from the internet.

  --port N    the port (default: any free one)      --open   open the page in a browser
  --provider, --model, --script   as for run (--script plays a scripted model: offline)
  --mode M    default | plan | accept-edits | bypass
  --tool-search MODE   auto | always | never: when tool definitions are deferred to tool
              search (overrides the config); the Tools page shows each tool's state
  --code-mode MODE     off | on | auto: offer the code_mode tool, whose program calls
                       tools (each call decided as yours); overrides the config's code_mode
  --trust-project   consent to what the workspace's files ask for, this session only
  --system-prompt TEXT, --append-system-prompt TEXT, --no-instructions   as for run (the
              Prompt page shows the system prompt as sent)
  --continue  continue the workspace's latest session    --resume ID   continue session ID
  --json      print {"url", "port", "token"} once listening, instead of the sentence

What the workspace's own files ask for that widens the agent is asked once in the terminal at
start, as in chat (docs/security.md). The API the page uses is in docs/studio-api.md.`,
  flags: [
    "port",
    "open",
    "provider",
    "model",
    "script",
    "mode",
    "tool-search",
    "code-mode",
    "system-prompt",
    "append-system-prompt",
    "no-instructions",
    "trust-project",
    "continue",
    "resume",
  ],
  positionals: { min: 0, max: 0, names: "" },
  run: runStudio,
};

async function runStudio({ flags, io }: CommandContext): Promise<number> {
  const port = parsePort(flags.port, 0);
  const studio = await importOptional<typeof import("@pseudoclaude/studio")>(
    "@pseudoclaude/studio",
    "The studio (pseudoclaude studio)",
  );
  if (!flags["trust-project"]) {
    const prompter = new ReadlinePrompter(io);
    try {
      await askForWorkspaceRequests(flags, io, prompter, io.stdout, isInteractive(io));
    } finally {
      prompter.close();
    }
  }
  const desk = new studio.ApprovalDesk();
  // The Traces page needs OpenTelemetry's trace SDK, an optional peer: without it the studio
  // works and says how to add it.
  const spans = await studio.SpanRecorder.start().catch((error: unknown) => {
    if (!isMissingPackage(error, [studio.TRACE_SDK_PACKAGE])) throw error;
    writeLine(
      io.stderr,
      `Traces are off: the studio records spans with ${studio.TRACE_SDK_PACKAGE}, which is not installed (npm install ${studio.TRACE_SDK_PACKAGE} where pseudoclaude is installed).`,
    );
    return undefined;
  });
  const providerFlags = { cwd: io.cwd, model: flags.model, script: flags.script };
  try {
    return await withCliAgent(
      {
        flags,
        io,
        provider: (config: LoadedConfig, consent: WorkspaceConsent) =>
          createProvider(flags.provider, providerFlags, config, consent),
        approver: () => desk.approver,
        elicitor: desk.elicitor,
        tracerProvider: spans?.tracerProvider,
        plugins: { mcpAppHost: true },
        agent: { backgroundSources: (id) => id.startsWith("mcp:") },
        sessions: true,
        systemPrompt: true,
      },
      async ({ agent }) => {
        const running = await studio.startStudio({ agent, desk, spans, port });
        try {
          if (flags.json)
            writeJson(io.stdout, { url: running.url, port: running.port, token: running.token });
          else {
            writeLine(io.stdout, `Studio for ${agent.workspace}: ${running.url}`);
            if (!agent.provider) writeLine(io.stderr, noProviderHelp(process.env));
            writeLine(io.stdout, "Ctrl-C stops it.");
          }
          if (flags.open) openBrowser(new URL(running.url));
          await new Promise<void>((resolve) => {
            if (io.signal?.aborted) resolve();
            io.signal?.addEventListener("abort", () => resolve(), { once: true });
          });
        } finally {
          await running.close();
        }
        return EXIT.ok;
      },
    );
  } finally {
    await spans?.shutdown();
  }
}
