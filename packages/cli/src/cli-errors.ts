import { ConfigError, UsageError } from "@pseudoclaude/core";
import { isErrorOf } from "@pseudoclaude/core/plugin";

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
  | "session_not_found"
  | "target_not_empty";

/**
 * Configuration error codes of the CLI's own: a `--plugin` module or a provider it cannot use,
 * or a package a command needs that is not installed.
 */
export type CliConfigErrorCode =
  | "plugin_load_failed"
  | "unknown_provider"
  | "no_provider"
  | "missing_package";

// The CLI's codes join the kernel's, so `UsageError.is(error)` and `ConfigError.is(error)` type
// `code` with them too wherever the CLI's modules are imported.
declare module "@pseudoclaude/core" {
  interface UsageErrorCodes extends Record<CliUsageErrorCode, true> {}
  interface ConfigErrorCodes extends Record<CliConfigErrorCode, true> {}
}

/** A usage error with one of the CLI's codes. */
export class CliUsageError extends UsageError<CliUsageErrorCode> {
  /** True for a CliUsageError from any copy of this module; `code` is typed. */
  static override is(value: unknown): value is CliUsageError {
    return isErrorOf(value, "usage", "CliUsageError");
  }
}

/** A configuration error with one of the CLI's codes. */
export class CliConfigError extends ConfigError<CliConfigErrorCode> {
  /** True for a CliConfigError from any copy of this module; `code` is typed. */
  static override is(value: unknown): value is CliConfigError {
    return isErrorOf(value, "config", "CliConfigError");
  }
}
