/** A request from the model (or the CLI) to run one tool. */
export interface ToolCall {
  /** Provider-assigned id linking the call to its result in the conversation. */
  id: string;
  /** Local full tool name. */
  name: string;
  /**
   * Parsed JSON arguments as the model sent them. Not trusted to be an object: the registry
   * rejects anything else with `invalid_arguments` before the tool sees it.
   */
  arguments: unknown;
  /** The call that made this one, for an inner call (a code-mode program's call of a tool). */
  parentId?: string | undefined;
}

/** Progress a running tool reports (MCP `notifications/progress`, a long command ...). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}
