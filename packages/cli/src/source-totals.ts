import type { SourceReport } from "@pseudoclaude/core";

/**
 * Counters summed per kind of source. Sources named `<kind>:<part>` (one per MCP server:
 * `mcp:context7`, `mcp:github`) add up under `<kind>`, which gives the MCP totals
 * (Configured, Connected, Discovered, Adapted, Registered) across all servers.
 */
export function sourceTotals(
  sources: readonly SourceReport[],
): Record<string, Record<string, number>> {
  const totals: Record<string, Record<string, number>> = {};
  for (const source of sources) {
    const colon = source.id.indexOf(":");
    if (colon <= 0) continue;
    const kind = source.id.slice(0, colon);
    const sum = totals[kind] ?? {};
    totals[kind] = sum;
    for (const [counter, value] of Object.entries(source.status.stats))
      sum[counter] = (sum[counter] ?? 0) + value;
  }
  return totals;
}
