/**
 * `@pseudoclaude/core/errors`: the framework's errors by fault, on their own. The same classes
 * as the root's (one copy in a process), for code that throws or branches on them without
 * loading the kernel: a sandbox, a worker, a command that only reports.
 *
 * @module @pseudoclaude/core/errors
 */

export {
  ConfigError,
  type ConfigErrorCode,
  type ConfigErrorCodes,
  type ErrorFault,
  type ErrorOptions,
  errorMessage,
  isErrorOf,
  ModelError,
  type ModelErrorCode,
  type ModelErrorCodes,
  PluginError,
  type PluginErrorCode,
  type PluginErrorCodes,
  PseudoClaudeError,
  SystemError,
  type SystemErrorCode,
  type SystemErrorCodes,
  ToolSourceError,
  type ToolSourceErrorCode,
  type ToolSourceErrorCodes,
  UsageError,
  type UsageErrorCode,
  type UsageErrorCodes,
} from "../errors.js";
