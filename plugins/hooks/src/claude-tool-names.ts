/**
 * The names Claude Code gives the tools ours match, so a matcher such as `Bash` or
 * `Edit|Write` written for Claude Code matches here too. MCP tools are `mcp__server__tool` in
 * both, as they are.
 */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  run_command: "Bash",
  read_file: "Read",
  write_file: "Write",
  edit_file: "Edit",
  grep: "Grep",
  glob: "Glob",
  list_dir: "LS",
};

/** The tool's input as a Claude Code hook reads it: ours, plus `file_path` where Claude Code has it. */
export function claudeToolInput(toolName: string, args: unknown): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const input = args as Record<string, unknown>;
  if (
    CLAUDE_TOOL_NAMES[toolName] &&
    typeof input.path === "string" &&
    input.file_path === undefined
  )
    return { ...input, file_path: input.path };
  return input;
}
