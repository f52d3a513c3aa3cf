/**
 * How the scripted model recognises a recorded MCP tool under the name a framework gives it:
 * frameworks prefix the server (`mcp__github__create_issue`, `github_create_issue`,
 * `mcp_github__create_issue`) and some replace characters OpenAI refuses (`API-post-search`
 * becomes `API_post_search`), so names are compared with every other character made `_`, the
 * recorded name as a suffix after a separator, and the server's key in the name or namespace.
 */

function normal(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, "_").toLowerCase();
}

/** `name` is `tool`, or ends with it after a separator. */
export function endsWithTool(name: string, tool: string): boolean {
  const n = normal(name);
  const t = normal(tool);
  return n === t || n.endsWith(`_${t}`);
}

/** The server's key appears in the name or in the namespace the tool sits in. */
export function namesServer(name: string, namespace: string | undefined, server: string): boolean {
  const s = normal(server);
  return normal(name).includes(s) || (namespace !== undefined && normal(namespace).includes(s));
}

/** The one of `names` that is `tool` of `server` (the server named, or the only match). */
export function pickTool<T extends { name: string; namespace?: string }>(
  candidates: readonly T[],
  server: string,
  tool: string,
): T | undefined {
  const matching = candidates.filter((c) => endsWithTool(c.name, tool));
  return (
    matching.find((c) => namesServer(c.name, c.namespace, server)) ??
    (matching.length === 1 ? matching[0] : undefined)
  );
}
