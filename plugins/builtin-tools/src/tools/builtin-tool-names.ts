/**
 * `@pseudoclaude/plugin-builtin-tools/tool-names`: the built-in tools' names and Claude Code's
 * names for them, without loading any tool's code.
 *
 * @module @pseudoclaude/plugin-builtin-tools/tool-names
 */

/**
 * Each built-in tool's name and the names Claude Code gives the same tool, first its current
 * name, then older ones (`MultiEdit`). Each tool declares its aliases from here, so a rule, a
 * hook matcher or an imported file written for Claude Code (`Bash(git log:*)`, `Edit|Write`,
 * `tools: Read, Grep`) finds it. Importable alone
 * (`@pseudoclaude/plugin-builtin-tools/tool-names`): no tool's code is loaded with it.
 */
export const BUILTIN_TOOL_ALIASES = {
  run_command: ["Bash"],
  read_file: ["Read"],
  write_file: ["Write"],
  edit_file: ["Edit", "MultiEdit"],
  grep: ["Grep"],
  glob: ["Glob"],
  list_dir: ["LS"],
} as const satisfies Record<string, readonly string[]>;

/** The name of a built-in tool. */
export type BuiltinToolName = keyof typeof BUILTIN_TOOL_ALIASES;
