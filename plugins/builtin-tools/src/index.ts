/**
 * `@pseudoclaude/plugin-builtin-tools`: local file, search and command tools, confined and
 * bounded.
 *
 * @module @pseudoclaude/plugin-builtin-tools
 */
export { BUILTIN_TOOLS_PLUGIN_NAME, builtinTools } from "./builtin-tools-plugin.js";
export { type AtomicWriteOptions, writeFileAtomic } from "./files/atomic-write.js";
export { searchFiles } from "./grep/grep-engine.js";
export type { GrepMode, GrepOutcome, GrepRequest, JudgeFiles } from "./grep/grep-request.js";
export {
  type CommandRequest,
  type CommandRunner,
  createCommandRunner,
  DefaultCommandRunner,
} from "./process/command-runner.js";
export {
  BUILTIN_TOOLS_SECTION,
  BUILTIN_TOOLS_SECTION_SPEC,
} from "./settings/builtin-tools-section.js";
export {
  type BuiltinToolsOptions,
  type BuiltinToolsSettings,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_SHELL,
} from "./settings/builtin-tools-settings.js";
export {
  BUILTIN_TOOLS_SUBJECT,
  BUILTIN_TOOLS_WIDENING,
  builtinToolsConsentRequest,
  type LoadedSettings,
  loadBuiltinToolsSettings,
} from "./settings/load-settings.js";
export { createBuiltinTools } from "./tools/builtin-tool-list.js";
export { BUILTIN_TOOL_ALIASES, type BuiltinToolName } from "./tools/builtin-tool-names.js";
export { BUILTIN_SOURCE_ID, type ToolKit } from "./tools/tool-kit.js";
export { type WalkEntry, type WalkOptions, walkTree } from "./walk/walk-tree.js";
