/** @pseudoclaude/plugin-code-mode - code mode: a program that calls tools, run in a QuickJS WebAssembly sandbox. */

export type { CodeModeUsageErrorCode } from "./code-mode-errors.js";
export { CODE_MODE_PLUGIN_NAME, type CodeModeOptions, codeMode } from "./code-mode-plugin.js";
export {
  CODE_MODE_MODES,
  CODE_MODE_SECTION,
  type CodeModeMode,
} from "./code-mode-section.js";
export { CODE_MODE_SOURCE } from "./code-tool.js";
export { CODE_TOOL_NAME } from "./code-tool-description.js";
export {
  type CallAnswer,
  closeSandbox,
  configureSandbox,
  DEFAULT_SANDBOX_LIMITS,
  type ProgramErrorCode,
  type ProgramOptions,
  type ProgramOutcome,
  runProgram,
  type SandboxHost,
  type SandboxLimits,
  type SandboxPoolOptions,
  type SandboxPoolStats,
  sandboxPoolStats,
  warmSandbox,
} from "./sandbox/index.js";
