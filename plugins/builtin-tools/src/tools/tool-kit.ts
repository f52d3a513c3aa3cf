import type { ToolResult } from "@pseudoclaude/core";
import type { PathGuard } from "@pseudoclaude/core/files";
import type { CommandRunner } from "../process/command-runner.js";
import type { BuiltinToolsSettings } from "../settings/builtin-tools-settings.js";

/** Id of the tool source every built-in tool belongs to. */
export const BUILTIN_SOURCE_ID = "builtin";

/** What every built-in tool is built with. */
export interface ToolKit {
  guard: PathGuard;
  settings: BuiltinToolsSettings;
  commands: CommandRunner;
}

/** Whether a helper answered with the tool's result (a refusal) rather than its value. */
export function isToolResult(value: object): value is ToolResult {
  return "ok" in value && "content" in value;
}
