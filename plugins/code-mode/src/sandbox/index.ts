/**
 * `@pseudoclaude/plugin-code-mode/sandbox`: the sandbox on its own, for a host of your own
 * (`runProgram` with a `SandboxHost` that answers the program's calls). It loads neither the
 * kernel nor the plugin, so its cold start is the sandbox's alone; the package's root entry
 * exports the same functions. The pieces it is built from stay internal.
 *
 * @module @pseudoclaude/plugin-code-mode/sandbox
 */
export type {
  CallAnswer,
  ProgramErrorCode,
  ProgramOptions,
  ProgramOutcome,
  SandboxHost,
} from "./program-types.js";
export { runProgram, warmSandbox } from "./run-program.js";
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from "./sandbox-limits.js";
export {
  closeSandbox,
  configureSandbox,
  type SandboxPoolOptions,
  type SandboxPoolStats,
  sandboxPoolStats,
} from "./worker-pool.js";
