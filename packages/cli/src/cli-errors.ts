import { ConfigError, UsageError } from "@pseudoclaude/core";

/** Every usage error code the CLI reports (`--json` prints it as `error.code`). */
export type CliUsageErrorCode =
  | "invalid_usage"
  | "unknown_command"
  | "unknown_flag"
  | "invalid_flag_value"
  | "unexpected_argument"
  | "missing_argument"
  | "missing_flag"
  | "invalid_mode"
  | "invalid_workspace"
  | "missing_script"
  | "unknown_provider"
  | "invalid_output_schema"
  | "invalid_session_id"
  | "session_not_found";

/**
 * Configuration error codes of the CLI's own: a `--plugin` module or a provider it cannot use,
 * or a package a command needs that is not installed.
 */
export type CliConfigErrorCode =
  | "plugin_load_failed"
  | "unknown_provider"
  | "no_provider"
  | "missing_package";

/** A usage error with one of the CLI's codes. */
export class CliUsageError extends UsageError<CliUsageErrorCode> {}

/** A configuration error with one of the CLI's codes. */
export class CliConfigError extends ConfigError<CliConfigErrorCode> {}
