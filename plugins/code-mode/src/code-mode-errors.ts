/** Codes of calls the plugin refuses (`UsageError`): options a program cannot run with. */
export type CodeModeUsageErrorCode = "invalid_program_options";

// The plugin's codes join the kernel's, so `UsageError.is(error)` types `code` with them too in
// any program that imports this plugin.
declare module "@pseudoclaude/core" {
  interface UsageErrorCodes extends Record<CodeModeUsageErrorCode, true> {}
}
