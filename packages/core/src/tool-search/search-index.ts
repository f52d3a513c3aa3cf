import type MiniSearch from "minisearch";
import type { ToolDefinition } from "../contracts/tool-definition.js";

/** One match of a search: the tool and its BM25 score (higher is better). */
export interface ToolSearchMatch {
  definition: ToolDefinition;
  score: number;
}

interface IndexedTool {
  id: number;
  name: string;
  title: string;
  description: string;
  parameters: string;
  server: string;
}

/**
 * BM25 over the deferred tools (MiniSearch's BM25+), built once per set of tools. Fields by
 * what they say of a tool: its name and title most, then its description, its parameters'
 * names and descriptions, and its server. Names are split into words (`create_issue`,
 * `createIssue`), and terms match by prefix and with small typos, because a model's query
 * guesses the words a tool's author used.
 */
export class ToolSearchIndex {
  private constructor(
    private readonly tools: readonly ToolDefinition[],
    private readonly index: MiniSearch<IndexedTool>,
  ) {}

  /** Loaded on first use: an agent that never defers a tool never loads the search library. */
  static async build(tools: readonly ToolDefinition[]): Promise<ToolSearchIndex> {
    const { default: MiniSearchClass } = await import("minisearch");
    const index = new MiniSearchClass<IndexedTool>({
      fields: ["name", "title", "description", "parameters", "server"],
      storeFields: [],
      processTerm: (term) => term.toLowerCase(),
    });
    index.addAll(tools.map(indexed));
    return new ToolSearchIndex(tools, index);
  }

  get size(): number {
    return this.tools.length;
  }

  /**
   * The best `limit` matches for `query`. A query naming tools exactly (`select:a,b`, or a
   * tool's full name) returns those tools first, as Claude Code's tool search does.
   */
  search(query: string, limit: number): ToolSearchMatch[] {
    const exact = this.exactNames(query);
    const ranked = this.index.search(words(query.replace(/^select:/i, "")), {
      boost: { name: 3, title: 2, description: 1, parameters: 0.7, server: 0.5 },
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      combineWith: "OR",
    });
    const matches: ToolSearchMatch[] = exact.map((definition) => ({ definition, score: Infinity }));
    for (const hit of ranked) {
      if (matches.length >= limit) break;
      const definition = this.tools[hit.id as number]!;
      if (!exact.includes(definition)) matches.push({ definition, score: hit.score });
    }
    return matches.slice(0, limit);
  }

  private exactNames(query: string): ToolDefinition[] {
    const names = query
      .replace(/^select:/i, "")
      .split(/[\s,]+/)
      .filter(Boolean);
    return this.tools.filter((tool) => names.includes(tool.name));
  }
}

function indexed(tool: ToolDefinition, id: number): IndexedTool {
  return {
    id,
    name: words(tool.name),
    title: words(String(tool.title ?? tool.annotations?.title ?? "")),
    description: tool.description,
    parameters: parameterText(tool.inputSchema),
    server: words(typeof tool.meta?.server === "string" ? tool.meta.server : tool.source),
  };
}

/** `mcp__github__createIssue` → `mcp github create issue`. */
function words(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.:/]+/g, " ")
    .trim();
}

/** Parameter names and descriptions, one level deep and in nested objects' properties. */
function parameterText(schema: Record<string, unknown>, depth = 0): string {
  const properties = schema.properties;
  if (!properties || typeof properties !== "object" || depth > 2) return "";
  const parts: string[] = [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    parts.push(words(name));
    if (property && typeof property === "object") {
      const described = (property as { description?: unknown }).description;
      if (typeof described === "string") parts.push(described);
      parts.push(parameterText(property as Record<string, unknown>, depth + 1));
    }
  }
  return parts.filter(Boolean).join(" ");
}
