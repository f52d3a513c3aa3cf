/**
 * `@pseudoclaude/core/plugin`: what authors of plugins and tool sources use beyond the root
 * entry point. A plugin's `register` gets a {@link PluginContext}; a tool source implements
 * `ToolSource` and pushes {@link ToolChange}s (or extends {@link StaticToolSource}); each
 * tool runs with a {@link ToolExecutionContext} and may validate its arguments once
 * ({@link ArgumentValidation}). Config sections are read with {@link validateSection};
 * secrets are kept out of diagnostics with the {@link Redactor}.
 *
 * @module @pseudoclaude/core/plugin
 */

export type { ProviderRef } from "../agent/provider-ref.js";
export type {
  ConfigLayer,
  ConfigPosition,
  LayerName,
  SectionEntry,
} from "../config/config-layer.js";
export type { ConfigSectionSpec } from "../config/config-section.js";
export {
  type Expansion,
  expandVariables,
  variableNames,
} from "../config/expand-variables.js";
export {
  CONFIG_DIR,
  CONFIG_FILE,
  type ForeignLayers,
  type LoadConfigOptions,
  loadConfigFile,
} from "../config/load-config.js";
export { didYouMean, suggestKey } from "../config/suggest-key.js";
export {
  blockingDiagnostic,
  CONFIG_PARSE,
  type SectionFields,
  type SectionValidation,
  validateSection,
  validateSectionFields,
} from "../config/validate-section.js";
export { loadZod, type ZodModule, zodSchema } from "../config/zod-schema.js";
export type { AgentCallbacks } from "../contracts/callbacks.js";
export {
  type AudioContent,
  type ContentKind,
  describeContentBlock,
  type EmbeddedResourceContent,
  type ImageContent,
  type ResourceLinkContent,
  type TextContent,
} from "../contracts/content.js";
export type { DiagnosticSeverity, DiagnosticStage } from "../contracts/diagnostic.js";
export type { InnerCallOutcome, InnerCalls } from "../contracts/inner-calls.js";
export type {
  CallingAgent,
  SubAgentHandle,
  SubAgentRunOptions,
} from "../contracts/run-records.js";
export type { ArgumentValidation, ToolExecutionContext } from "../contracts/tool.js";
export type { ToolCall, ToolProgress } from "../contracts/tool-call.js";
export {
  type JsonSchema,
  type ToolAnnotations,
  type ToolAudience,
  type ToolPermissionKey,
  visibleToApps,
  visibleToModel,
} from "../contracts/tool-definition.js";
export { KERNEL_TOOL_ERROR_CODES, type KernelToolErrorCode } from "../contracts/tool-result.js";
export type {
  ToolChange,
  ToolSourceStartContext,
  ToolSourceState,
  ToolSourceStats,
  ToolSourceStatus,
} from "../contracts/tool-source.js";
export {
  handedOffTask,
  isTerminalTaskStatus,
  type ToolTaskMode,
  type ToolTaskReference,
  type ToolTaskStatus,
  type ToolTaskUpdate,
  taskHandoffResult,
} from "../contracts/tool-task.js";
export type { ToolTrace } from "../contracts/tool-trace.js";
export {
  DefaultRedactor,
  isSecretName,
  REDACTED,
  type Redactor,
} from "../diagnostics/redactor.js";
export { type ErrorOptions, errorMessage, isErrorOf } from "../errors.js";
/** The kernel's own sections (`agent`, `permissions`), declared like a plugin's. */
export { KERNEL_SECTIONS } from "../kernel-sections.js";
export type { PluginContext, PluginSpec } from "../plugin/plugin.js";
export { optionKeys, reportUnknownOptions } from "../plugin/plugin-options.js";
export type { PolicyLayer } from "../policy/policy-layer.js";
export type { SystemPromptSection } from "../prompt/system-prompt.js";
export {
  type ApplyChangeOutcome,
  type CallPreparation,
  type ExecuteOptions,
  type PreparedCall,
  ToolRegistry,
  type ToolRegistryChange,
  type ToolRegistryEvents,
} from "../registry/tool-registry.js";
export {
  type CompiledJsonSchema,
  type CompileJsonSchemaOptions,
  compileJsonSchema,
  describeIssues,
  JsonSchemaCompileError,
  type SchemaIssue,
  warmJsonSchemaCompiler,
} from "../schema/json-schema-validator.js";
export { DefaultSkillCatalog } from "../skills/default-skill-catalog.js";
export { SkillCatalog, type SkillCatalogEvents } from "../skills/skill-catalog.js";
export type {
  SkillLayerEntry,
  SkillLayerFile,
  SkillLayerProvider,
  SkillLayerRegistration,
} from "../skills/skill-layer.js";
export { ToolSearchIndex, type ToolSearchMatch } from "../tool-search/search-index.js";
export { objectInputSchema } from "../tools/input-schema.js";
export { StaticToolSource } from "../tools/static-tool-source.js";
export {
  hashedToolName,
  MAX_TOOL_NAME_LENGTH,
  sanitizeToolName,
  VALID_TOOL_NAME,
} from "../tools/tool-name.js";
export { abortKind, CallAbortReason } from "../util/abort.js";
export { detachedSlice } from "../util/detached-slice.js";
export { type Disposable, toDisposable } from "../util/disposable.js";
export { isPlainObject } from "../util/plain-object.js";
export { type RequestSignal, requestSignal, withRequestSignal } from "../util/request-signal.js";
