import type { Diagnostic } from "@pseudoclaude/core";
import type { McpSession, RemoteTool } from "../mcp-session.js";

export const DEFAULT_PAGE_CAP = 100;

export interface ListedTools {
  tools: RemoteTool[];
  /** Tools as the server returned them, invalid ones and duplicates included (the Discovered count). */
  discovered: number;
  pages: number;
  diagnostics: Diagnostic[];
}

/**
 * Follow `nextCursor` to the end, without trusting the server: a server repeating a non-empty
 * cursor would otherwise keep us listing until the budget ran out, so a cursor seen before, or
 * more pages than the cap, ends listing with a diagnostic and keeps what was found.
 * An empty-string cursor is a real cursor (the spec says cursors are opaque strings; only an
 * absent `nextCursor` ends the list). Duplicate names across pages keep the first.
 */
export async function listAllTools(
  session: McpSession,
  signal: AbortSignal,
  pageCap = DEFAULT_PAGE_CAP,
): Promise<ListedTools> {
  const server = session.serverName;
  const out: ListedTools = { tools: [], discovered: 0, pages: 0, diagnostics: [] };
  const seenCursors = new Set<string>();
  const seenNames = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await session.listToolsPage(cursor, signal);
    out.pages += 1;
    out.discovered += page.tools.length + (page.invalid?.length ?? 0);
    for (const bad of page.invalid ?? []) {
      out.diagnostics.push({
        stage: "list_tools",
        severity: "warning",
        code: "invalid_remote_tool",
        source: "mcp",
        item: `${server}/${bad.name ?? "?"}`,
        message: `Server "${server}" listed an invalid tool${bad.name ? ` "${bad.name}"` : ""} (${bad.message}); skipped.`,
      });
    }
    for (const tool of page.tools) {
      if (seenNames.has(tool.name)) {
        out.diagnostics.push({
          stage: "list_tools",
          severity: "warning",
          code: "duplicate_remote_tool",
          source: "mcp",
          item: `${server}/${tool.name}`,
          message: `Server "${server}" listed tool "${tool.name}" more than once (page ${out.pages}); kept the first.`,
        });
        continue;
      }
      seenNames.add(tool.name);
      out.tools.push(tool);
    }
    if (page.nextCursor === undefined) break;
    if (seenCursors.has(page.nextCursor)) {
      out.diagnostics.push({
        stage: "list_tools",
        severity: "warning",
        code: "repeated_cursor",
        source: "mcp",
        item: server,
        message: `Server "${server}" returned cursor ${JSON.stringify(page.nextCursor)} again after ${out.pages} page(s); listing stopped with ${out.tools.length} tool(s).`,
      });
      break;
    }
    if (out.pages >= pageCap) {
      out.diagnostics.push({
        stage: "list_tools",
        severity: "warning",
        code: "page_cap",
        source: "mcp",
        item: server,
        message: `Server "${server}" still had more tools after ${pageCap} pages (the page cap); listing stopped with ${out.tools.length} tool(s).`,
      });
      break;
    }
    seenCursors.add(page.nextCursor);
    cursor = page.nextCursor;
  }
  return out;
}
