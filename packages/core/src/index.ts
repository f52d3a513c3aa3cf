/**
 * @pseudoclaude/core - the kernel: contracts (ToolSource, Provider, PolicyEngine) with DI
 * tokens of the same names, the tool registry, the default policy engine, the agent loop,
 * the plugin host and layered config.
 */
import "reflect-metadata";

export {
  Agent,
  AgentSettings,
  type CallToolOptions,
  type CallToolOutcome,
  type RunOptions,
  type RunResult,
  type RunStopReason,
  type SourceReport,
  type ToolCallRecord,
} from "./agent/agent.js";
export { AgentCallbacks } from "./agent/agent-callbacks.js";
export { AgentContainer } from "./agent/agent-container.js";
export type { AgentEvents } from "./agent/agent-events.js";
export type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  ElicitationRequest,
  ElicitationResponse,
  Elicitor,
} from "./agent/callbacks.js";
export { DefaultAgent } from "./agent/default-agent.js";
export { planBatches } from "./agent/execution-plan.js";
export { ProviderRef } from "./agent/provider-ref.js";
export { AGENT_SECTION, type AgentSection, agentSectionSchema } from "./config/agent-section.js";
export type {
  ConfigLayer,
  ConfigPosition,
  LayerName,
  SectionEntry,
} from "./config/config-layer.js";
export { type Expansion, expandVariables } from "./config/expand-variables.js";
export {
  CONFIG_DIR,
  CONFIG_FILE,
  defaultConfigPaths,
  type LoadConfigOptions,
  LoadedConfig,
  loadConfig,
} from "./config/load-config.js";
export { type SectionValidation, validateSection } from "./config/validate-section.js";
export { Conversation } from "./conversation/conversation.js";
export type {
  AssistantMessage,
  Message,
  ToolResultMessage,
  UserMessage,
} from "./conversation/message.js";
export { type CreateAgentOptions, createAgent, DEFAULT_MAX_TURNS } from "./create-agent.js";
export {
  type Diagnostic,
  type DiagnosticSeverity,
  type DiagnosticStage,
  formatDiagnostic,
} from "./diagnostics/diagnostic.js";
export { DefaultDiagnosticsSink, DiagnosticsSink } from "./diagnostics/diagnostics-sink.js";
export { DefaultRedactor, REDACTED, type Redactor } from "./diagnostics/redactor.js";
export {
  ConfigError,
  type ErrorFault,
  errorMessage,
  ModelError,
  PluginError,
  PseudoClaudeError,
  SystemError,
  UsageError,
} from "./errors.js";
export { definePlugin, type Plugin, type PluginContext, type PluginSpec } from "./plugin/plugin.js";
export { DefaultPluginHost, PluginHost } from "./plugin/plugin-host.js";
export { orderPlugins } from "./plugin/plugin-order.js";
export { commandMatches, splitCommand } from "./policy/command-match.js";
export {
  compilePolicyRules,
  createPolicyEngine,
  DefaultPolicyEngine,
} from "./policy/default-policy-engine.js";
export {
  buildPolicySettings,
  PERMISSIONS_SECTION,
  permissionsSectionSchema,
} from "./policy/permissions-section.js";
export {
  type DecisionBasis,
  PERMISSION_MODES,
  type PermissionMode,
  type PolicyDecision,
  PolicyEngine,
  type RuleOrigin,
  type Verdict,
} from "./policy/policy-engine.js";
export {
  type PolicyOptions,
  PolicySettings,
  type RuleSpec,
  rulesOf,
} from "./policy/policy-settings.js";
export { parseRulePattern, type RulePattern } from "./policy/rule-pattern.js";
export {
  DefaultSystemPromptBuilder,
  type SystemPromptBudget,
} from "./prompt/default-system-prompt-builder.js";
export {
  type BuiltSystemPrompt,
  SystemPromptBuilder,
  type SystemPromptSection,
} from "./prompt/system-prompt.js";
export { adaptResultContent } from "./provider/content-support.js";
export {
  Provider,
  type ProviderEvent,
  type ProviderRequest,
  type ProviderUsage,
  type StopReason,
} from "./provider/provider.js";
export {
  type ApiErrorFacts,
  describeCause,
  modelErrorCode,
  type SdkErrorClasses,
  type SdkErrorContext,
  sdkModelError,
  withoutSecret,
} from "./provider/provider-errors.js";
export {
  createToolNameMap,
  type ToolNameMap,
  WIRE_TOOL_NAME,
  wireToolName,
} from "./provider/tool-name-map.js";
export { DefaultToolRegistry } from "./registry/default-tool-registry.js";
export {
  DEFAULT_TOOL_TIMEOUT_MS,
  type EffectiveTimeout,
  resolveEffectiveTimeout,
  type TimeoutSource,
} from "./registry/effective-timeout.js";
export {
  type ApplyChangeOutcome,
  type ExecuteOptions,
  ToolRegistry,
  type ToolRegistryChange,
  type ToolRegistryEvents,
  ToolRegistryOptions,
} from "./registry/tool-registry.js";
export {
  type AudioContent,
  type ContentBlock,
  type ContentKind,
  describeContentBlock,
  type EmbeddedResourceContent,
  type ImageContent,
  type ResourceLinkContent,
  type TextContent,
  textOf,
} from "./tools/content.js";
export { type DefineToolSpec, defineTool, formatZodIssues } from "./tools/define-tool.js";
export { StaticToolSource } from "./tools/static-tool-source.js";
export type { ArgumentValidation, Tool, ToolExecutionContext } from "./tools/tool.js";
export type { ToolCall, ToolProgress } from "./tools/tool-call.js";
export type {
  JsonSchema,
  ToolAnnotations,
  ToolDefinition,
  ToolPermissionKey,
  ToolSafety,
} from "./tools/tool-definition.js";
export {
  isToolErrorCode,
  TOOL_ERROR_CODES,
  type ToolError,
  type ToolErrorCode,
  type ToolResult,
  toolFailure,
  toolSuccess,
} from "./tools/tool-result.js";
export {
  type ToolChange,
  ToolSource,
  type ToolSourceStartContext,
  type ToolSourceState,
  type ToolSourceStats,
  type ToolSourceStatus,
} from "./tools/tool-source.js";
export { abortKind, CallAbortReason } from "./util/abort.js";
export { type Disposable, toDisposable } from "./util/disposable.js";
export { isPlainObject } from "./util/plain-object.js";
export {
  groupAlive,
  signalGroup,
  terminateGroup,
  trackGroup,
  untrackGroup,
  waitForGroupEnd,
} from "./util/process-group.js";
export { WorkspaceRoot } from "./workspace.js";
