/** @pseudoclaude/plugin-code-mode - code mode: a program that calls tools, run in a QuickJS WebAssembly sandbox. */

export type { CodeModeUsageErrorCode } from "./code-mode-errors.js";
export {
  type CallAnswer,
  DEFAULT_SANDBOX_LIMITS,
  type ProgramErrorCode,
  type ProgramOptions,
  type ProgramOutcome,
  runProgram,
  type SandboxHost,
  type SandboxLimits,
  warmSandbox,
} from "./sandbox/index.js";
