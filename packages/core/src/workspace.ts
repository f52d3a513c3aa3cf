/** DI token for the agent's workspace root (an absolute path string). */
export const WorkspaceRoot = Symbol.for("@pseudoclaude/core:WorkspaceRoot");
