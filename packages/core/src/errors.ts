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
  details?: Record<string, unknown> | undefined;
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

  /**
   * True for any PseudoClaudeError, even one from another copy of this module. Each subclass
   * has its own `is` (`ModelError.is(error)`), which narrows `code` to the class's codes; an
   * `instanceof` of a generic class would leave it `any`.
   */
  static is(value: unknown): value is PseudoClaudeError {
    return (
      value instanceof PseudoClaudeError ||
      (value instanceof Error &&
        typeof (value as Partial<PseudoClaudeError>).code === "string" &&
        typeof (value as Partial<PseudoClaudeError>).fault === "string")
    );
  }
}

/**
 * Whether `value` is an error of this fault (and, for a subclass, of this class name). Checked
 * by fields rather than `instanceof` alone, so an error made by another copy of the module (two
 * versions of a package in one app) still counts.
 */
export function isErrorOf(value: unknown, fault: ErrorFault, name?: string): boolean {
  return PseudoClaudeError.is(value) && value.fault === fault && (!name || value.name === name);
}

/**
 * The codes of each fault class, one interface per class (a code is a key). A package that throws
 * codes of its own adds them to the class's interface by declaration merging
 * (`declare module "@pseudoclaude/core" { interface ConfigErrorCodes extends Record<McpConfigErrorCode, true> {} }`),
 * so `ConfigErrorCode` is every config code of the packages a program imports, and a guard
 * such as `ConfigError.is` gives a `code` that lists exactly what can arrive.
 */
export interface ConfigErrorCodes {
  config_invalid: true;
  invalid_rule: true;
  not_registered: true;
  no_provider: true;
  /** `provider: "name"` (or config `provider.name`) names no provider of `providers`. */
  unknown_provider: true;
  missing_api_key: true;
  missing_base_url: true;
  missing_model: true;
  invalid_provider_option: true;
  approvals_unreadable: true;
}

/** Codes of configuration errors: the kernel's, every provider's through its contract, and plugins'. */
export type ConfigErrorCode = keyof ConfigErrorCodes;

/** Codes of API misuse (see {@link ConfigErrorCodes} for how a package adds its own). */
export interface UsageErrorCodes {
  agent_closed: true;
  run_in_progress: true;
  mode_not_switchable: true;
  /** `run(prompt, { output })` got something that is not a usable schema. */
  output_schema_invalid: true;
  /** A session id that could not be a file name. */
  invalid_session_id: true;
  /** `--resume ID` / `session: { id, resume: true }` named a session the store does not have. */
  session_not_found: true;
  /** A `beforeRun` hook (a `UserPromptSubmit` command) blocked the prompt. */
  run_blocked: true;
  /** `agent.stream(prompt)` iterated a second time. */
  stream_consumed: true;
}

/** Codes of API misuse: the kernel's and those of the packages a program imports. */
export type UsageErrorCode = keyof UsageErrorCodes;

/**
 * Codes of model failures. Providers classify their SDK's errors into these (see
 * `modelErrorCode` in `@pseudoclaude/core/provider`), so callers branch the same way whatever the
 * model.
 */
export interface ModelErrorCodes {
  authentication_failed: true;
  permission_denied: true;
  not_found: true;
  bad_request: true;
  request_too_large: true;
  rate_limited: true;
  overloaded: true;
  server_error: true;
  api_error: true;
  connection_failed: true;
  timeout: true;
  provider_failed: true;
  response_failed: true;
  stream_incomplete: true;
  stream_interrupted: true;
  /** A run's typed output missed its schema (`StructuredOutputError`). */
  output_invalid: true;
  /** A run with an output schema ended without a final answer (`StructuredOutputError`). */
  output_missing: true;
}

/** Codes of model failures: every provider's, and those of the packages a program imports. */
export type ModelErrorCode = keyof ModelErrorCodes;

/** Codes of plugin declaration and start-up failures. */
export interface PluginErrorCodes {
  invalid_plugin: true;
  duplicate_plugin: true;
  missing_dependency: true;
  dependency_cycle: true;
  plugin_register_failed: true;
  invalid_tool_source: true;
  /** `createAgent({ tools })` got something that is not a tool, or two with one name. */
  invalid_tool: true;
  duplicate_tool_source: true;
  duplicate_skill_layer: true;
  source_start_failed: true;
}

/** Codes of plugin failures: the kernel's and those of the packages a program imports. */
export type PluginErrorCode = keyof PluginErrorCodes;

/**
 * Codes of a tool's other end failing. The kernel throws none: each tool source adds its own
 * (the MCP plugin's `connect_timeout`, `call_timed_out` …), so with none imported there are none.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the tool sources' declaration merging
export interface ToolSourceErrorCodes {}

/** Codes of tool-source failures of the packages a program imports. */
export type ToolSourceErrorCode = keyof ToolSourceErrorCodes;

/** Codes of failures of the framework itself or its environment; filled as for {@link ToolSourceErrorCodes}. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by packages' declaration merging
export interface SystemErrorCodes {}

/** Codes of system failures of the packages a program imports. */
export type SystemErrorCode = keyof SystemErrorCodes;

/** The configuration (files, options passed to createAgent) is wrong. */
export class ConfigError<Code extends string = ConfigErrorCode> extends PseudoClaudeError<Code> {
  readonly fault = "config" as const;

  /** True for any ConfigError (subclasses too, from any copy of this module); `code` is a {@link ConfigErrorCode}. */
  static override is(value: unknown): value is ConfigError<ConfigErrorCode> {
    return isErrorOf(value, "config");
  }
}

/** The caller used an API or command wrongly (bad flag, bad argument). */
export class UsageError<Code extends string = UsageErrorCode> extends PseudoClaudeError<Code> {
  readonly fault = "usage" as const;

  /** True for any UsageError (subclasses too, from any copy of this module); `code` is a {@link UsageErrorCode}. */
  static override is(value: unknown): value is UsageError<UsageErrorCode> {
    return isErrorOf(value, "usage");
  }
}

/** The model or its provider failed (API error, malformed response, script exhausted). */
export class ModelError<Code extends string = ModelErrorCode> extends PseudoClaudeError<Code> {
  readonly fault = "model" as const;

  /** True for any ModelError (subclasses too, from any copy of this module); `code` is a {@link ModelErrorCode}. */
  static override is(value: unknown): value is ModelError<ModelErrorCode> {
    return isErrorOf(value, "model");
  }
}

/** A plugin was declared or registered wrongly, or failed to start. */
export class PluginError<Code extends string = PluginErrorCode> extends PseudoClaudeError<Code> {
  readonly fault = "plugin" as const;

  /** True for any PluginError (subclasses too, from any copy of this module); `code` is a {@link PluginErrorCode}. */
  static override is(value: unknown): value is PluginError<PluginErrorCode> {
    return isErrorOf(value, "plugin");
  }
}

/**
 * A tool's other end failed: a server that cannot be reached, a session that ended, a
 * protocol breach. Tool sources throw these; the kernel never does, so it has no codes of its
 * own and each source names its union.
 */
export class ToolSourceError<Code extends string> extends PseudoClaudeError<Code> {
  readonly fault = "tool" as const;

  /** True for any ToolSourceError (subclasses too, from any copy of this module); `code` is a {@link ToolSourceErrorCode}. */
  static override is(value: unknown): value is ToolSourceError<ToolSourceErrorCode> {
    return isErrorOf(value, "tool");
  }
}

/** Something in the framework itself or its environment failed. */
export class SystemError<Code extends string> extends PseudoClaudeError<Code> {
  readonly fault = "system" as const;

  /** True for any SystemError (subclasses too, from any copy of this module); `code` is a {@link SystemErrorCode}. */
  static override is(value: unknown): value is SystemError<SystemErrorCode> {
    return isErrorOf(value, "system");
  }
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
