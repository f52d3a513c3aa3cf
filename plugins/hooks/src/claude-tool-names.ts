import { CLAUDE_CODE_TOOL_NAMES } from "@pseudoclaude/compat-claude-code";

/**
 * Claude Code's name for each built-in tool of ours, as the built-in tools declare them (the
 * compatibility package's map, kept under this name for the plugin's users).
 */
export const CLAUDE_TOOL_NAMES = CLAUDE_CODE_TOOL_NAMES;

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
