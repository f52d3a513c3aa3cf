import type { Diagnostic, SourceReport, ToolDefinition } from "@pseudoclaude/core";
import { visibleToModel } from "@pseudoclaude/core/plugin";
import { type TextSink, writeLine } from "./cli-io.js";
import { sourceTotals } from "./source-totals.js";
import { firstLine, fitWords, table } from "./text-format.js";
import type { ToolSearchReport } from "./tool-search-report.js";

/**
 * The human form of `pseudoclaude tools` (and chat's `/tools`): a table of tools with how the
 * model sees each, a line on tool search, then the sources. Diagnostics are printed on stderr
 * at start-up like for every command; here they are only counted.
 */
export function renderToolsReport(
  out: TextSink,
  tools: readonly ToolDefinition[],
  offered: ReadonlySet<string>,
  sources: readonly SourceReport[],
  diagnostics: readonly Diagnostic[],
  search: ToolSearchReport,
): void {
  if (tools.length === 0) writeLine(out, "No tools.");
  else {
    const rows = tools.map((tool) => [
      tool.name,
      tool.source,
      tool.safety,
      offered.has(tool.name) ? "yes" : visibleToModel(tool) ? "no" : "no (app only)",
      search.states.get(tool.name) ?? "-",
      fitWords(firstLine(tool.description), 80),
    ]);
    for (const line of table(
      ["NAME", "SOURCE", "SAFETY", "OFFERED", "STATE", "DESCRIPTION"],
      rows,
      out.isTTY ? out.columns : undefined,
    )) {
      writeLine(out, line);
    }
  }
  writeLine(out);
  writeLine(out, toolSearchLine(search));
  writeLine(out);
  writeLine(out, sources.length === 0 ? "Sources: none" : "Sources:");
  for (const source of sources) {
    writeLine(
      out,
      `  ${source.id}  ${source.status.state}  ${stats(source.status.stats)}`.trimEnd(),
    );
    for (const part of source.status.parts ?? []) {
      const detail = [
        part.name,
        part.state,
        stats(part.stats ?? {}),
        firstLine(part.message ?? ""),
      ];
      writeLine(out, `    - ${detail.filter((item) => item !== "").join("  ")}`);
    }
  }
  for (const [kind, counters] of Object.entries(sourceTotals(sources))) {
    writeLine(out, `Total ${kind}: ${stats(counters)}`);
  }
  writeLine(out);
  writeLine(out, `Diagnostics: ${diagnosticSummary(diagnostics)}`);
}

/**
 * One line on tool search: `tool search: local, 318 deferred, 3 found (~1,200 of ~13,000
 * tokens sent) — why`, or with nothing deferred, why not and what all definitions cost.
 */
export function toolSearchLine(search: ToolSearchReport): string {
  const sent = count(search.tokens.sent);
  if (search.engine === "none")
    return `tool search: none — ${search.reason}; ~${sent} tokens of definitions sent`;
  return `tool search: ${search.engine}, ${search.deferred} deferred, ${search.found} found (~${sent} of ~${count(search.tokens.all)} tokens sent) — ${search.reason}`;
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}

function diagnosticSummary(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return "none";
  const counts = new Map<string, number>();
  for (const { severity } of diagnostics) counts.set(severity, (counts.get(severity) ?? 0) + 1);
  const parts = [...counts].map(([severity, count]) => `${count} ${severity}`);
  return `${diagnostics.length} (${parts.join(", ")}), listed on stderr`;
}

function stats(values: Record<string, number>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
}
