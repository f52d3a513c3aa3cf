import type { CallToolOutcome } from "@pseudoclaude/core";
import { withCliAgent } from "../cli-agent.js";
import { type CliIo, writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { parsePositiveInteger } from "../flag-values.js";
import { callOutcomeToJson, diagnosticsToJson } from "../json-output.js";
import { suggestTool, unknownToolHint } from "../suggestions.js";
import { contentText } from "../text-format.js";

/** `pseudoclaude call`: one tool through policy, approval, registry and timeout, as the loop runs it. */
export const callCommand: CommandSpec = {
  name: "call",
  summary: "Run one tool exactly as the agent would (policy, approval, timeout).",
  usage: `Usage: pseudoclaude call TOOL [JSON_ARGS] [--json] [--mode M] [--yes] [--trust-project]
                        [--timeout-ms N] [--tool-search MODE] [--code-mode MODE]
                        [--workspace DIR] [--plugin PATH]...

Run one tool through the same path a model's call takes: policy, approval, registry,
argument validation and the one effective timeout. JSON_ARGS defaults to {}. Text that is
not JSON is passed through as is, so the registry answers invalid_arguments.

  --mode M          default | plan | accept_edits | bypass (overrides the config)
  --yes, -y         approve every call the policy would ask about
  --trust-project   consent, for this run only, to what the workspace's files ask for
  --timeout-ms N    per-call timeout (highest precedence)
  --tool-search MODE  auto | always | never (overrides the config). A deferred tool is
                    called all the same; with tools deferred, call tool_search
                    '{"query": "calendar events"}' shows what a search would load
  --code-mode MODE    off | on | auto: offer the code_mode tool, whose program calls
                      tools (each call decided as yours); overrides the config's code_mode
  --trace FILE      append the call's OpenTelemetry span to FILE as OTLP JSON lines
  --json            the ToolResult plus "decision", "approval" and "diagnostics" on stdout

Exit 0 when the result is ok, 1 otherwise (denied, unknown tool, invalid arguments,
tool error, timeout). For an unknown tool the closest registered name is suggested (in --json
as "suggestion"); pseudoclaude tools lists them all.`,
  flags: ["mode", "yes", "trust-project", "timeout-ms", "trace", "tool-search", "code-mode"],
  positionals: { min: 1, max: 2, names: "TOOL [JSON_ARGS]" },
  run: runCall,
};

async function runCall({ flags, args, io }: CommandContext): Promise<number> {
  const [name = "", rawArguments = "{}"] = args;
  const timeoutMs = parsePositiveInteger("timeout-ms", flags["timeout-ms"]);
  return withCliAgent({ flags, io, traced: true }, async ({ agent }) => {
    // Our search tool joins the registry when an offer first defers tools: decide one, so that
    // `call tool_search` answers what a search would load.
    if (name === "tool_search") agent.toolOffer();
    const outcome = await agent.callTool(name, parseArguments(rawArguments), {
      timeoutMs,
      signal: io.signal,
    });
    // A mistyped name gets the closest registered tool; the exit code stays that of the call.
    const unknown = outcome.result.error?.code === "unknown_tool";
    const suggestion = unknown
      ? suggestTool(
          name,
          agent.registry.definitions().map((tool) => tool.name),
        )
      : undefined;
    if (flags.json)
      writeJson(io.stdout, {
        ...callOutcomeToJson(outcome),
        ...(suggestion !== undefined ? { suggestion } : {}),
        // What went wrong on the way (a failed hook, a server's warning), as `run --json` says it.
        diagnostics: diagnosticsToJson(agent.diagnostics()),
      });
    else {
      printOutcome(io, outcome);
      if (unknown) writeLine(io.stderr, unknownToolHint(suggestion));
    }
    if (io.signal?.aborted) return EXIT.interrupted;
    return outcome.result.ok ? EXIT.ok : EXIT.failed;
  });
}

/**
 * JSON when it parses. Otherwise the raw text goes to the registry, which rejects it as
 * `invalid_arguments` without running the tool - the same answer a model gets for bad JSON.
 */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function printOutcome(io: CliIo, outcome: CallToolOutcome): void {
  const { result } = outcome;
  const [only] = result.content;
  // A failure's content is usually just its error message; print that once, on stderr.
  const echoesError =
    result.error !== undefined &&
    result.content.length === 1 &&
    only?.type === "text" &&
    only.text === result.error.message;
  if (!echoesError && result.content.length > 0) writeLine(io.stdout, contentText(result.content));
  if (result.content.length === 0 && result.structured !== undefined) {
    writeJson(io.stdout, result.structured);
  }
  if (result.error) writeLine(io.stderr, `${result.error.code}: ${result.error.message}`);
}
