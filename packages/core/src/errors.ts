/**
 * One error base class with a stable `code` and structured `details`, subclassed by who is at
 * fault. Callers branch on `code` (stable across releases), never on message text.
 *
 * Each fault class takes its codes from a literal union: the kernel's by default, a plugin's own
 * when the plugin names it (`new ConfigError<McpConfigErrorCode>("…", …)`), so a typo in a code
 * is a compile error and every code a package throws is listed in one place.
 */
export type ErrorFault = "config" | "usage" | "model" | "tool" | "plugin" | "system";

/** Structured context and the underlying cause of an error. */
export interface ErrorOptions {
  /** File, line, plugin, tool …; never secrets. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** Base of every error this framework throws on purpose. */
export abstract class PseudoClaudeError<Code extends string = string> extends Error {
  /** Who is at fault: decides exit codes and how the CLI reports it. */
  abstract readonly fault: ErrorFault;
  /** Stable, machine-readable identifier, e.g. `config_invalid`. */
  readonly code: Code;
  /** Structured context (file, line, plugin, tool ...). Never holds secrets. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: NoInfer<Code>, message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = Object.freeze({ ...(options.details ?? {}) });
  }

  /** True for any PseudoClaudeError, even one from another copy of this module. */
  static is(value: unknown): value is PseudoClaudeError {
    return (
      value instanceof PseudoClaudeError ||
      (value instanceof Error &&
        typeof (value as Partial<PseudoClaudeError>).code === "string" &&
        typeof (value as Partial<PseudoClaudeError>).fault === "string")
    );
  }
}

/** Codes of configuration errors the kernel, and every provider through its contract, raise. */
export type ConfigErrorCode =
  | "config_invalid"
  | "invalid_rule"
  | "not_registered"
  | "no_provider"
  /** `provider: "name"` (or config `provider.name`) names no provider of `providers`. */
  | "unknown_provider"
  | "missing_api_key"
  | "missing_base_url"
  | "missing_model"
  | "invalid_provider_option"
  | "approvals_unreadable";

/** Codes of API misuse the kernel reports. */
export type UsageErrorCode =
  | "agent_closed"
  | "run_in_progress"
  | "mode_not_switchable"
  /** `run(prompt, { output })` got something that is not a usable schema. */
  | "output_schema_invalid"
  /** A session id that could not be a file name. */
  | "invalid_session_id"
  /** `--resume ID` / `session: { id, resume: true }` named a session the store does not have. */
  | "session_not_found"
  /** A `beforeRun` hook (a `UserPromptSubmit` command) blocked the prompt. */
  | "run_blocked"
  /** `agent.stream(prompt)` iterated a second time. */
  | "stream_consumed";

/**
 * Codes of model failures. Providers classify their SDK's errors into these (see
 * `modelErrorCode` in `@pseudoclaude/core/provider`), so callers branch the same way whatever the
 * model.
 */
export type ModelErrorCode =
  | "authentication_failed"
  | "permission_denied"
  | "not_found"
  | "bad_request"
  | "request_too_large"
  | "rate_limited"
  | "overloaded"
  | "server_error"
  | "api_error"
  | "connection_failed"
  | "timeout"
  | "provider_failed"
  | "response_failed"
  | "stream_incomplete"
  | "stream_interrupted";

/** Codes of plugin declaration and start-up failures. */
export type PluginErrorCode =
  | "invalid_plugin"
  | "duplicate_plugin"
  | "missing_dependency"
  | "dependency_cycle"
  | "plugin_register_failed"
  | "invalid_tool_source"
  /** `createAgent({ tools })` got something that is not a tool, or two with one name. */
  | "invalid_tool"
  | "duplicate_tool_source"
  | "duplicate_skill_layer"
  | "source_start_failed";

/** The configuration (files, options passed to createAgent) is wrong. */
export class ConfigError<Code extends string = ConfigErrorCode> extends PseudoClaudeError<Code> {
  readonly fault = "config" as const;
}

/** The caller used an API or command wrongly (bad flag, bad argument). */
export class UsageError<Code extends string = UsageErrorCode> extends PseudoClaudeError<Code> {
  readonly fault = "usage" as const;
}

/** The model or its provider failed (API error, malformed response, script exhausted). */
export class ModelError<Code extends string = ModelErrorCode> extends PseudoClaudeError<Code> {
  readonly fault = "model" as const;
}

/** A plugin was declared or registered wrongly, or failed to start. */
export class PluginError<Code extends string = PluginErrorCode> extends PseudoClaudeError<Code> {
  readonly fault = "plugin" as const;
}

/**
 * A tool's other end failed: a server that cannot be reached, a session that ended, a
 * protocol breach. Tool sources throw these; the kernel never does, so it has no codes of its
 * own and each source names its union.
 */
export class ToolSourceError<Code extends string> extends PseudoClaudeError<Code> {
  readonly fault = "tool" as const;
}

/** Something in the framework itself or its environment failed. */
export class SystemError<Code extends string> extends PseudoClaudeError<Code> {
  readonly fault = "system" as const;
}

/** Message of any thrown value, without assuming it is an Error. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
