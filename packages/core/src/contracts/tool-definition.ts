/** A JSON Schema object as sent to models. Kept as plain data. */
export type JsonSchema = Record<string, unknown>;

/**
 * `read_only` tools may be offered in plan mode and run concurrently; everything else is
 * `side_effect`. Sources must only claim `read_only` when they know it, never on a remote hint.
 */
export type ToolSafety = "read_only" | "side_effect";

/**
 * Behaviour hints as a tool's author describes them (MCP tool annotations). They are
 * untrusted: carried as data for display and for sources that explicitly trust them, never
 * used by the kernel to decide anything.
 */
export interface ToolAnnotations {
  title?: string | undefined;
  readOnlyHint?: boolean | undefined;
  destructiveHint?: boolean | undefined;
  idempotentHint?: boolean | undefined;
  openWorldHint?: boolean | undefined;
  [key: string]: unknown;
}

/**
 * How policy rules with an argument pattern, such as `run_command(npm test*)` or
 * `write_file(src/**)`, match this tool's arguments. Tools without it never match
 * argument patterns.
 */
export interface ToolPermissionKey {
  /** Name of the string argument the pattern is matched against. */
  argument: string;
  /**
   * `command`: shell-command prefix matching that looks at every sub-command of `&&`, `;`, `|`;
   * `path`: gitignore-style glob relative to the workspace;
   * `glob`: plain glob on the raw value.
   */
  match: "command" | "path" | "glob";
}

/**
 * An image a UI may show for a tool (MCP's `Icon`): an `https:` URL or a `data:image/…` URI,
 * nothing else (a source's icons are checked where they enter).
 */
export interface ToolIcon {
  src: string;
  mimeType?: string | undefined;
  /** `48x48`, `any`, … */
  sizes?: string[] | undefined;
  theme?: "light" | "dark" | undefined;
}

/** Everything the model, the policy and the CLI know about a tool, separate from running it. */
export interface ToolDefinition {
  /** Local full name, unique in the registry, e.g. `mcp__context7__search_docs`. */
  name: string;
  description: string;
  /** JSON Schema of the arguments object, as offered to the model. */
  inputSchema: JsonSchema;
  safety: ToolSafety;
  /** Id of the tool source that provides it. */
  source: string;
  /** Untrusted hints from the tool's author (see {@link ToolAnnotations}). */
  annotations?: ToolAnnotations | undefined;
  /**
   * What the tool does, for mode decisions: `edit` tools (file writes) are auto-approved in
   * `accept_edits` mode. Only local, trusted sources set it.
   */
  category?: "edit" | "command" | "other" | undefined;
  /** Per-tool timeout from its source's configuration; see the timeout precedence. */
  timeoutMs?: number | undefined;
  /**
   * How long a call that became a long-running task (see `ToolExecutionContext.reportTask`) may
   * run in all, from its source's configuration (MCP `task_timeout_ms`). Default: no limit.
   */
  taskTimeoutMs?: number | undefined;
  /** How argument patterns in policy rules apply to this tool. */
  permissionKey?: ToolPermissionKey | undefined;
  /**
   * Other names the tool answers to, declared by the tool itself: Claude Code's names for the
   * built-in tools (`Bash` for `run_command`), so rules, hook matchers and imported files
   * written for Claude Code find it. Policy rules match a tool by its name or any alias. Only
   * local, trusted sources set them (an MCP server's tools never have aliases).
   */
  aliases?: readonly string[] | undefined;
  /** A name for people (a UI, a listing), where the tool's author gave one. */
  title?: string | undefined;
  /** Images a UI may show for the tool. */
  icons?: ToolIcon[] | undefined;
  /** Source-specific facts (e.g. `server`, `remote_name`). */
  meta?: Record<string, unknown> | undefined;
  /**
   * The tool runs a sub-agent (`subAgent`): its calls take no call slot, because the child's
   * own calls take theirs, and what the child spent counts toward the caller's run.
   */
  subAgent?: boolean | undefined;
  /**
   * The tool makes calls of other tools through `ToolExecutionContext.inner` (a code-mode
   * program): its calls take no call slot (each inner call takes its own), and in a durable
   * run it is not one journal step — its inner calls are (see `InnerCalls`).
   */
  innerCalls?: boolean | undefined;
  /**
   * Whether the model is sent this tool's definition up front or finds it through tool search
   * (see docs/tool-search.md): `true` known to the search only until found, `false` always
   * sent, `"auto"` deferred once the offered set passes the agent's threshold (what MCP tools
   * get by default). Absent: always sent, as built-in tools, skills and sub-agents are.
   */
  deferLoading?: boolean | "auto" | undefined;
  /**
   * Who may call the tool (MCP Apps' `_meta.ui.visibility`): `"model"` (it is offered to
   * models, found by search, reachable from a program) and `"app"` (a view of the tool's own
   * source may call it). Absent: both. An app-only tool is never shown to a model; a
   * model-only tool is refused to a view.
   */
  audience?: readonly ToolAudience[] | undefined;
}

/** Who may call a tool: the model, or the views (MCP Apps) of its own source. */
export type ToolAudience = "model" | "app";

/** Whether a model may see and call the tool. */
export function visibleToModel(tool: Pick<ToolDefinition, "audience">): boolean {
  return tool.audience === undefined || tool.audience.includes("model");
}

/** Whether a view (an MCP App) of the tool's own source may call it. */
export function visibleToApps(tool: Pick<ToolDefinition, "audience">): boolean {
  return tool.audience === undefined || tool.audience.includes("app");
}
