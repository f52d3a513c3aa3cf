import { suggestKey } from "@pseudoclaude/core/plugin";

/**
 * "Did you mean" for what a person types on the command line: commands, options and tool
 * names. One matcher for all of them (the config's, which forgives two edits at most), so a
 * suggestion is never wilder in one place than in another.
 */

/** The known command closest to a mistyped one (`chta` -> `chat`). */
export function suggestCommand(name: string, commands: readonly string[]): string | undefined {
  return suggestKey(name, commands);
}

/**
 * The flag (as `--name`) closest to a mistyped one, among the flags the command takes. Dashes
 * are compared too, so `--max-turn` and `--maxturns` both find `--max-turns`.
 */
export function suggestFlag(raw: string, flags: readonly string[]): string | undefined {
  const typed = raw.replace(/^-+/, "").replace(/=.*$/, "");
  if (typed === "") return undefined;
  const found = suggestKey(typed, flags);
  return found === undefined ? undefined : `--${found}`;
}

/**
 * The registered tool a mistyped name most likely meant. MCP tools are registered as
 * `mcp__<server>__<tool>`, and people type the server's own name for a tool (`echo`), so the
 * part after the last `__` is matched too; it only counts when one tool has that name.
 */
export function suggestTool(name: string, tools: readonly string[]): string | undefined {
  if (tools.includes(name)) return undefined;
  const whole = suggestKey(name, tools);
  if (whole !== undefined) return whole;
  const byShortName = new Map<string, string[]>();
  for (const tool of tools) {
    const short = tool.slice(tool.lastIndexOf("__") + 2);
    if (short === tool) continue;
    byShortName.set(short, [...(byShortName.get(short) ?? []), tool]);
  }
  const exact = byShortName.get(name);
  if (exact?.length === 1) return exact[0];
  const near = suggestKey(name, [...byShortName.keys()]);
  const owners = near === undefined ? undefined : byShortName.get(near);
  return owners?.length === 1 ? owners[0] : undefined;
}

/** The sentence that follows "Unknown tool ...": a suggestion if any, and where the list is. */
export function unknownToolHint(suggestion: string | undefined): string {
  const list = 'Run "pseudoclaude tools" for the list.';
  return suggestion === undefined ? list : `Did you mean "${suggestion}"? ${list}`;
}
