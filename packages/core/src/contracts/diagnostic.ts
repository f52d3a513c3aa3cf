/**
 * A diagnostic is how anything that was skipped, degraded or suspicious is reported
 * without stopping start-up: a broken config layer, an invalid server, a rejected tool.
 */
export type DiagnosticSeverity = "error" | "warning" | "info";

/** Where in the life of an agent the diagnostic arose. Open set: plugins add their own stages. */
export type DiagnosticStage =
  | "config"
  | "plugin"
  | "start"
  | "connect"
  | "list_tools"
  | "adapt_tool"
  | "register"
  | "policy"
  | "prompt"
  | "runtime"
  | (string & {});

export interface Diagnostic {
  stage: DiagnosticStage;
  severity: DiagnosticSeverity;
  message: string;
  /** Stable machine-readable code, e.g. `duplicate_tool_name`. */
  code?: string | undefined;
  /** The tool source or plugin the item belongs to (e.g. `mcp`, `builtin-tools`). */
  source?: string | undefined;
  /** Config layer: `user`, `project` or `code`. */
  layer?: string | undefined;
  /** The item concerned: a server, a tool name, a config key path. */
  item?: string | undefined;
  file?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  /** Extra structured context; redacted like the message. */
  details?: Record<string, unknown> | undefined;
  /**
   * A problem in configuration that can restrict the agent (a permissions section with a
   * misspelt key, a broken config file): going on without it could drop a deny rule, so
   * `createAgent` throws a `ConfigError` for it unless `config.onError` is `diagnose`.
   */
  blocking?: boolean | undefined;
}

/** Short one-line rendering for terminals: `error config project:.PseudoClaude/config.yaml:3:5 message`. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where: string[] = [];
  if (diagnostic.file) {
    let position = diagnostic.file;
    if (diagnostic.line !== undefined) position += `:${diagnostic.line}`;
    if (diagnostic.column !== undefined) position += `:${diagnostic.column}`;
    where.push(position);
  }
  if (diagnostic.source) where.push(`source=${diagnostic.source}`);
  if (diagnostic.layer) where.push(`layer=${diagnostic.layer}`);
  if (diagnostic.item) where.push(`item=${diagnostic.item}`);
  const location = where.length > 0 ? ` [${where.join(" ")}]` : "";
  return `${diagnostic.severity} ${diagnostic.stage}${location}: ${diagnostic.message}`;
}
