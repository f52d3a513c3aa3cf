/**
 * Claude Code's names for the tools the built-in tools plugin provides, in one place: hooks
 * match them (`Bash`, `Edit|Write`), Skills and agent files map `allowed-tools`/`tools` from
 * them. MCP tools are `mcp__server__tool` in both, as they are.
 */
export const CLAUDE_CODE_TOOL_NAMES: Readonly<Record<string, string>> = {
  run_command: "Bash",
  read_file: "Read",
  write_file: "Write",
  edit_file: "Edit",
  grep: "Grep",
  glob: "Glob",
  list_dir: "LS",
};

/** Claude Code names with a tool of ours, Claude Code's older aliases included. */
export const FROM_CLAUDE_CODE_NAMES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(CLAUDE_CODE_TOOL_NAMES).map(([ours, cc]) => [cc, ours])),
  MultiEdit: "edit_file",
};
