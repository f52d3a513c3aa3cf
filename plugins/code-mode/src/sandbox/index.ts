// What the rest of the plugin (and the package's public entry) uses of the sandbox; the
// pieces it is built from stay internal.
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
