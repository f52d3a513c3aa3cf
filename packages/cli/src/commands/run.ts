import type { Agent, LoadedConfig, RunResult } from "@pseudoclaude/core";
import type { WorkspaceConsent } from "@pseudoclaude/core/consent";
import { withCliAgent } from "../cli-agent.js";
import { CliUsageError } from "../cli-errors.js";
import { type CliIo, writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { parseDurable } from "../durable/durable-flags.js";
import { runDurable } from "../durable/durable-run.js";
import { EXIT, exitCodeFor } from "../exit-codes.js";
import { parsePositiveInteger } from "../flag-values.js";
import { errorToJson, runToJson } from "../json-output.js";
import { explainNoProvider } from "../no-provider.js";
import { readOutputSchemaFlag } from "../output-schema-flag.js";
import { createProvider } from "../providers.js";
import { RunRenderer } from "../render-run.js";
import { RunRecorder } from "../run-recorder.js";

/** `pseudoclaude run`: the agent loop on one prompt. */
export const runCommand: CommandSpec = {
  name: "run",
  summary: "Run the agent on a prompt (streams text; tool calls on stderr).",
  usage: `Usage: pseudoclaude run PROMPT [--provider NAME] [--model M] [--script FILE] [--mode M]
                       [--tool-search MODE] [--code-mode MODE] [--yes] [--trust-project] [--max-turns N]
                       [--system-prompt TEXT] [--append-system-prompt TEXT]
                       [--no-instructions] [--output-schema FILE] [--json]
                       [--continue | --resume ID] [--trace FILE] [--workspace DIR]
                       [--plugin PATH]...
       pseudoclaude run PROMPT --durable restate [--session ID | --continue | --resume ID]
                       [--ingress URL] [--admin URL] [--max-turns N] [--json]

Run the agent loop: the model's text streams to stdout, tool calls, policy decisions and
results are short lines on stderr.

  --provider NAME   the model provider: anthropic, openai, openai-compatible, scripted
                    (default: config provider.name)
  --model M         model name (default: config provider.model, else the provider's default)
  --script FILE     JSON list of model turns for the scripted provider (implies it)
  --mode M          default | plan | accept_edits | bypass (overrides the config)
  --tool-search MODE  auto | always | never: when tool definitions are deferred to tool
                    search (overrides the config's tool_search mode).
                    Each search is a line on stderr: searched \`calendar\` → 3 found: ...
  --code-mode MODE    off | on | auto: offer the code_mode tool, whose program calls
                      tools (each call decided as yours); overrides the config's code_mode
  --yes, -y         approve every call the policy would ask about (not the workspace's
                    own servers, hooks or settings: that is --trust-project)
  --trust-project   consent, for this run only, to what the workspace's files ask for
                    (pseudoclaude trust lists it; trust approve remembers it)
  --max-turns N     stop after N model turns
  --system-prompt TEXT  replace the base system prompt (who the agent is, how approvals
                    work, the workspace's facts); instruction files still follow it
  --append-system-prompt TEXT  add TEXT after the base system prompt
  --no-instructions leave CLAUDE.md, AGENTS.md and the other instruction files out
  --output-schema FILE  a JSON Schema the final answer must match (sent back once to be
                    repaired); --json prints the validated value under "output"
  --continue, -c    continue the workspace's latest session
  --resume ID, -r   continue session ID (pseudoclaude sessions lists them)
  --trace FILE      append the run's OpenTelemetry spans to FILE as OTLP JSON lines
                    (without it, OTEL_* variables configure an installed OpenTelemetry SDK)
  --json            {"text", "turns", "stop_reason", "tool_calls", "usage", "diagnostics",
                    "session_id", "output" with --output-schema}
  --durable restate submit the run to a Restate server instead (docs/durable-runs.md): a
                    worker (pseudoclaude serve --durable restate) runs it, each step recorded;
                    its events stream here as they are recorded, and Ctrl-C detaches (exit
                    130) while the run goes on. --json adds "invocation_id".
  --session ID      the durable session to run in (continues its conversation); default a
                    new one, whose id is printed. With --durable, --continue and --resume ID
                    pick a session the server holds (read through --admin URL, default
                    $PSEUDOCLAUDE_RESTATE_ADMIN, else http://127.0.0.1:9070)
  --ingress URL     Restate's ingress (default: $PSEUDOCLAUDE_RESTATE_INGRESS, else
                    http://127.0.0.1:8080)

Every run is saved as a session in ~/.PseudoClaude/sessions (never in the workspace).

Exit 0 when the model gave a final answer; 1 when the provider failed, the run hit
--max-turns or was aborted; 2 when no provider is configured.`,
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
    "output-schema",
    "continue",
    "resume",
    "trace",
    "durable",
    "session",
    "ingress",
    "admin",
  ],
  positionals: { min: 1, max: 1, names: "PROMPT" },
  run: runPrompt,
};

async function runPrompt({ flags, args, io }: CommandContext): Promise<number> {
  const maxTurns = parsePositiveInteger("max-turns", flags["max-turns"]);
  if (parseDurable(flags.durable)) return runDurable(flags, io, args[0] ?? "", maxTurns);
  const durableOnly = (["session", "ingress", "admin"] as const).find(
    (flag) => flags[flag] !== undefined,
  );
  if (durableOnly)
    throw new CliUsageError(
      "invalid_usage",
      `--${durableOnly} is for durable runs (--durable restate); a saved session here is --resume ID.`,
    );
  const output = flags["output-schema"]
    ? readOutputSchemaFlag(io.cwd, flags["output-schema"])
    : undefined;
  const providerFlags = { cwd: io.cwd, model: flags.model, script: flags.script };
  const session = {
    flags,
    io,
    provider: (config: LoadedConfig, consent: WorkspaceConsent) =>
      createProvider(flags.provider, providerFlags, config, consent),
    sessions: true,
    traced: true,
    systemPrompt: true,
  };
  return withCliAgent(session, async ({ agent, resumed }) => {
    if (resumed && !flags.json)
      writeLine(
        io.stderr,
        `Continuing session ${agent.sessionId} (${agent.conversation.length} messages).`,
      );
    const recorder = new RunRecorder(agent);
    const renderer = flags.json ? undefined : new RunRenderer(agent, io);
    let result: RunResult;
    try {
      result = await agent.run(args[0] ?? "", {
        signal: io.signal,
        maxTurns,
        ...(output ? { output } : {}),
      });
    } catch (error) {
      renderer?.finish();
      return reportRunFailure(agent, io, flags.json ?? false, recorder, explainNoProvider(error));
    }
    if (flags.json) {
      writeJson(
        io.stdout,
        runToJson(
          result,
          agent.diagnostics(),
          agent.sessionId,
          output ? { output: result.output } : {},
        ),
      );
    } else {
      renderer?.finish();
      if (result.stopReason === "max_turns") {
        writeLine(io.stderr, `Stopped after ${result.turns} turns without a final answer.`);
      } else if (result.stopReason === "aborted") {
        writeLine(io.stderr, "Run aborted.");
      }
    }
    if (result.stopReason === "end_turn") return EXIT.ok;
    return io.signal?.aborted ? EXIT.interrupted : EXIT.failed;
  });
}

/** The provider failed (or there is none): say so, and in --json still print one document. */
function reportRunFailure(
  agent: Agent,
  io: CliIo,
  json: boolean,
  recorder: RunRecorder,
  error: unknown,
): number {
  const failure = errorToJson(error);
  writeLine(io.stderr, `pseudoclaude run: ${failure.message}`);
  if (json) {
    writeJson(
      io.stdout,
      runToJson({ ...recorder, stopReason: "error" }, agent.diagnostics(), agent.sessionId, {
        error: failure,
      }),
    );
  }
  return exitCodeFor(error);
}
