/**
 * `@pseudoclaude/compat-claude-code`: Claude Code's file formats as Claude Code reads them, in
 * one place. The Skills, hooks and agents plugins read users' Claude Code files through it, so
 * a difference from Claude Code is fixed once, here.
 */
export const CLAUDE_CODE_COMPAT = "claude-code";
