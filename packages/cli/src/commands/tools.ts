import type { LoadedConfig } from "@pseudoclaude/core";
import type { WorkspaceConsent } from "@pseudoclaude/core/consent";
import { loadCliConfig, withCliAgent } from "../cli-agent.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import {
  diagnosticsToJson,
  sourceToJson,
  toolDefinitionToJson,
  toolSearchToJson,
} from "../json-output.js";
import { createProvider } from "../providers.js";
import { renderToolsReport } from "../render-tools.js";
import { ruleTypos, ruleTypoText } from "../rule-typos.js";
import { sourceTotals } from "../source-totals.js";
import { toolSearchReport } from "../tool-search-report.js";

/** `pseudoclaude tools`: start every plugin and show what the registry holds. */
export const toolsCommand: CommandSpec = {
  name: "tools",
  summary: "List every tool, source status and start-up diagnostic.",
  usage: `Usage: pseudoclaude tools [--json] [--strict] [--tool-search MODE] [--code-mode MODE] [--provider NAME]
                         [--model M] [--workspace DIR] [--plugin PATH]...

Start every plugin (no model needed) and print the tool registry: name, source, safety,
whether the policy offers the tool to the model, its state (loaded: sent on every request;
deferred: known to tool search only; found: loaded by a search) and a description; a line on
tool search (who searches, how many tools are deferred, the tokens of definitions sent); then
each tool source with its state and counters, and every diagnostic.

  --strict   exit 2 if any diagnostic is an error
  --trust-project   consent, for this run only, to what the workspace's files ask for
  --tool-search MODE   auto | always | never: when tools are deferred (overrides the
             config's tool_search mode)
  --code-mode MODE     off | on | auto: offer the code_mode tool, whose program calls
                       tools (each call decided as yours); overrides the config's code_mode
  --json     {"tools": [...], "sources": [...], "totals": {...}, "diagnostics": [...],
             "tool_search": {...}} on stdout, plus "rule_typos" when a permission rule names
             no tool but is close to one

  --provider NAME   decide tool search as this provider would (its tool limit, its own
             search, its model's context window): anthropic, openai, openai-compatible,
             scripted; nothing is sent to it, but it needs its key variable as run does
  --model M  that provider's model

No model is asked anything. Without --provider, tool search is reported as our own search
would run it ("local"); with it, as a run on that provider would ("provider" where the API
searches by itself).

A permission rule whose tool name is no registered tool but close to one (run_comand) is
warned about on stderr, with the name it probably meant.`,
  flags: ["strict", "trust-project", "tool-search", "code-mode", "provider", "model"],
  positionals: { min: 0, max: 0, names: "" },
  run: runTools,
};

async function runTools({ flags, io }: CommandContext): Promise<number> {
  // Only a provider named on the command line: the config's is not built just to list tools.
  const provider = flags.provider
    ? (config: LoadedConfig, consent: WorkspaceConsent) =>
        createProvider(flags.provider, { cwd: io.cwd, model: flags.model }, config, consent)
    : undefined;
  const options = { flags, io, diagnoseConfig: true, ...(provider ? { provider } : {}) };
  return withCliAgent(options, async ({ agent }) => {
    // First: deciding the offer registers the search tool when tools are deferred.
    const search = toolSearchReport(agent.toolOffer());
    const offered = new Set(agent.offeredTools().map((tool) => tool.name));
    // Sorted, so two runs over the same configuration print the same listing.
    const tools = [...agent.registry.definitions()].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    const sources = agent.sources();
    const diagnostics = agent.diagnostics();
    // Every source has started here, so a rule naming no tool is not one still connecting.
    const { config } = await loadCliConfig(flags, io);
    const typos = ruleTypos(
      config,
      tools.map((tool) => tool.name),
    );
    if (flags.json) {
      writeJson(io.stdout, {
        tools: tools.map((tool) =>
          toolDefinitionToJson(tool, offered.has(tool.name), search.states.get(tool.name) ?? null),
        ),
        sources: sources.map(sourceToJson),
        totals: sourceTotals(sources),
        diagnostics: diagnosticsToJson(diagnostics),
        tool_search: toolSearchToJson(search),
        ...(typos.length > 0 ? { rule_typos: typos } : {}),
      });
    } else {
      renderToolsReport(io.stdout, tools, offered, sources, diagnostics, search);
      for (const typo of typos) writeLine(io.stderr, ruleTypoText(typo));
    }
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
    if (flags.strict && errors > 0) {
      writeLine(io.stderr, `--strict: ${errors} diagnostic(s) with severity error.`);
      return EXIT.usage;
    }
    return EXIT.ok;
  });
}
