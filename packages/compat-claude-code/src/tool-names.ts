import { BUILTIN_TOOL_ALIASES } from "@pseudoclaude/plugin-builtin-tools/tool-names";

/**
 * Claude Code's name for each built-in tool of ours (its current name: `run_command` →
 * `Bash`), from the aliases each built-in tool declares. MCP tools are `mcp__server__tool`
 * in both, as they are.
 */
export const CLAUDE_CODE_TOOL_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(BUILTIN_TOOL_ALIASES).map(([ours, aliases]) => [ours, aliases[0]]),
);

/** Our tool for each Claude Code name, its older names included (`MultiEdit` → `edit_file`). */
export const FROM_CLAUDE_CODE_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(BUILTIN_TOOL_ALIASES).flatMap(([ours, aliases]) =>
    aliases.map((alias) => [alias, ours]),
  ),
);
