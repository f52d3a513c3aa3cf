/**
 * `@pseudoclaude/compat-claude-code`: Claude Code's file formats as Claude Code reads them, in
 * one place. The Skills, hooks and agents plugins read users' Claude Code files through it, so
 * a difference from Claude Code is fixed once, here.
 *
 * @module @pseudoclaude/compat-claude-code
 */
export const CLAUDE_CODE_COMPAT = "claude-code";
export {
  type AllowedToolMapping,
  mapAllowedTool,
  splitAllowedTools,
} from "./allowed-tools.js";
export { type FilePosition, frontMatterPosition } from "./front-matter-position.js";
export { type FrontMatterSplit, splitFrontMatter } from "./front-matter-split.js";
export {
  CLAUDE_CODE_HOOK_EVENTS,
  type ClaudeCodeExit,
  type ClaudeCodeHookEvent,
  claudeCodeExit,
  claudePermissionMode,
  type HookInputBase,
  isClaudeCodeHookEvent,
  MATCHER_FIELDS,
  TOOL_MATCHER_EVENTS,
} from "./hook-events.js";
export {
  additionalContextOf,
  blockOf,
  type HookJson,
  type PermissionRequestAnswer,
  type PreToolUseAnswer,
  permissionRequestAnswer,
  preToolUseAnswer,
  stopOf,
  systemMessageOf,
} from "./hook-output.js";
export {
  type InstructionFileCandidate,
  type InstructionFileName,
  type InstructionScope,
  instructionFileCandidates,
  repositoryRoot,
} from "./instruction-files.js";
export { findImports, type InstructionImport } from "./instruction-imports.js";
export {
  type HomeReadRequest,
  type InstructionLoad,
  type InstructionLoadOptions,
  type InstructionProblem,
  type InstructionProblemKind,
  type LoadedInstructionFile,
  loadInstructionFiles,
  MAX_IMPORT_DEPTH,
  MAX_INSTRUCTION_FILE_BYTES,
} from "./instruction-load.js";
export {
  type AgentModelChoice,
  CLAUDE_CODE_MODEL_ALIASES,
  CLAUDE_MODEL_FOR_FAMILY,
  type ClaudeModelFamily,
  classifyAgentModel,
  claudeModelId,
  type ParentModel,
  resolveAgentModel,
} from "./model-aliases.js";
export { quoteSpecialValues } from "./quote-special-values.js";
export { type FrontMatter, type FrontMatterRead, readFrontMatter } from "./read-front-matter.js";
export {
  type ClaudeSettingsFile,
  type ClaudeSettingsScope,
  claudeSettingsFiles,
} from "./settings-files.js";
export {
  CLAUDE_MANAGED_SETTINGS_ENV,
  CLAUDE_MANAGED_SETTINGS_FILE,
  type ClaudeCodeLayersOptions,
  claudeCodeLayers,
} from "./settings-layers.js";
export {
  CLAUDE_DEFAULT_MODES,
  settingsNotApplied,
  translateSettings,
} from "./settings-translation.js";
export { CLAUDE_CODE_TOOL_NAMES, FROM_CLAUDE_CODE_NAMES } from "./tool-names.js";
