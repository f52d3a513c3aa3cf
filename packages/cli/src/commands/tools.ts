import { loadCliConfig, withCliAgent } from "../cli-agent.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { diagnosticsToJson, sourceToJson, toolDefinitionToJson } from "../json-output.js";
import { renderToolsReport } from "../render-tools.js";
import { ruleTypos, ruleTypoText } from "../rule-typos.js";
import { sourceTotals } from "../source-totals.js";

/** `pseudoclaude tools`: start every plugin and show what the registry holds. */
export const toolsCommand: CommandSpec = {
  name: "tools",
  summary: "List every tool, source status and start-up diagnostic.",
  usage: `Usage: pseudoclaude tools [--json] [--strict] [--workspace DIR] [--plugin PATH]...

Start every plugin (no model needed) and print the tool registry: name, source, safety,
whether the policy offers the tool to the model, and a description; then each tool source
with its state and counters, and every diagnostic.

  --strict   exit 2 if any diagnostic is an error
  --trust-project   consent, for this run only, to what the workspace's files ask for
  --json     {"tools": [...], "sources": [...], "totals": {...}, "diagnostics": [...]} on stdout,
             plus "rule_typos" when a permission rule names no tool but is close to one

A permission rule whose tool name is no registered tool but close to one (run_comand) is
warned about on stderr, with the name it probably meant.`,
  flags: ["strict", "trust-project"],
  positionals: { min: 0, max: 0, names: "" },
  run: runTools,
};

async function runTools({ flags, io }: CommandContext): Promise<number> {
  return withCliAgent({ flags, io, diagnoseConfig: true }, async ({ agent }) => {
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
        tools: tools.map((tool) => toolDefinitionToJson(tool, offered.has(tool.name))),
        sources: sources.map(sourceToJson),
        totals: sourceTotals(sources),
        diagnostics: diagnosticsToJson(diagnostics),
        ...(typos.length > 0 ? { rule_typos: typos } : {}),
      });
    } else {
      renderToolsReport(io.stdout, tools, offered, sources, diagnostics);
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
