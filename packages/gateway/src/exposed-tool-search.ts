import type { ToolDefinition } from "@pseudoclaude/core";
import { ToolSearchIndex } from "@pseudoclaude/core/plugin";
import type { ExposedTool, GatewayTools } from "./gateway-tools.js";

/** What one search answers: the best matches, best first, and how many tools it looked at. */
export interface ExposedToolMatches {
  found: readonly ExposedTool[];
  searched: number;
}

/**
 * The kernel's tool search (BM25 over names, titles, descriptions and parameters) over the
 * tools the gateway exports, so it finds exactly what `all` mode would list: the exposure
 * filter and the policy have already had their say. Each tool is indexed under its exported
 * name, the one clients call it by (`select:<name>` and a full name match it exactly). The
 * index is built on the first search after the exported set changes, not on every change: a
 * registry that changes often (servers reconnecting, skills loading) costs nothing until a
 * client searches.
 */
export class ExposedToolSearch {
  private index:
    | {
        over: readonly ExposedTool[];
        built: Promise<{ index: ToolSearchIndex; byDefinition: Map<ToolDefinition, ExposedTool> }>;
      }
    | undefined;

  constructor(private readonly tools: GatewayTools) {}

  async search(query: string, limit: number): Promise<ExposedToolMatches> {
    const exposed = this.tools.all();
    if (this.index?.over !== exposed) this.index = { over: exposed, built: build(exposed) };
    const { index, byDefinition } = await this.index.built;
    const found = index
      .search(query, limit)
      .map((match) => byDefinition.get(match.definition))
      .filter((tool): tool is ExposedTool => tool !== undefined);
    return { found, searched: exposed.length };
  }
}

async function build(exposed: readonly ExposedTool[]) {
  const byDefinition = new Map<ToolDefinition, ExposedTool>();
  for (const tool of exposed)
    byDefinition.set(
      tool.name === tool.definition.name
        ? tool.definition
        : { ...tool.definition, name: tool.name },
      tool,
    );
  return { index: await ToolSearchIndex.build([...byDefinition.keys()]), byDefinition };
}
