/**
 * `@pseudoclaude/core`: what people composing agents use. Build an agent from plugins and a
 * provider with {@link createAgent}, add tools with {@link definePlugin} and
 * {@link defineTool}, read what a run did ({@link RunResult}, {@link ToolResult}, the
 * {@link AgentEvents}), branch on errors by `fault` and `code`. The three contracts,
 * {@link ToolSource}, {@link Provider} and {@link PolicyEngine}, are here as types and (for the
 * two a plugin may register) DI tokens.
 *
 * Authors of plugins and tool sources also use `@pseudoclaude/core/plugin`, authors of model
 * providers `@pseudoclaude/core/provider`, sources that start processes
 * `@pseudoclaude/core/process`, those that touch files `@pseudoclaude/core/files`, and programs
 * that manage project approvals `@pseudoclaude/core/consent`. The errors alone, without the
 * kernel, are `@pseudoclaude/core/errors`.
 *
 * @module @pseudoclaude/core
 */
import "reflect-metadata";

export type {
  Agent,
  ApprovalOutcome,
  CallToolOptions,
  CallToolOutcome,
  ForkCapability,
  ForkOptions,
  RunOptions,
  RunResult,
  RunStopReason,
  SourceReport,
  StructuredRunResult,
  ToolCallRecord,
} from "./agent/agent.js";
export { DEFAULT_AGENT_NAME } from "./agent/agent.js";
export type { AgentStream, AgentStreamEvent } from "./agent/agent-stream.js";
export {
  DEFAULT_SUB_AGENT_DEPTH,
  type SubAgentSpec,
  subAgent,
  subAgentToolName,
} from "./agent/sub-agent.js";
export { LoadedConfig, loadConfig } from "./config/load-config.js";
export type { ProjectApprovals } from "./consent/consent-store.js";
export {
  type ContextCompaction,
  ContextManager,
  type ContextRequest,
} from "./context/context-manager.js";
export {
  DefaultContextManager,
  type DefaultContextManagerOptions,
} from "./context/default-context-manager.js";
export { estimateRequestTokens } from "./context/token-estimate.js";
export {
  type AgentEventPayloads,
  type AgentEvents,
  RUN_EVENT_NAMES,
  type RunEventName,
  type SubAgentTag,
} from "./contracts/agent-events.js";
export type {
  AfterToolCallContext,
  AfterToolCallResult,
  AgentHooks,
  BeforeApprovalContext,
  BeforeApprovalResult,
  BeforeCompactionContext,
  BeforeCompactionResult,
  BeforeModelRequestContext,
  BeforeModelRequestResult,
  BeforeRunContext,
  BeforeRunResult,
  BeforeToolCallContext,
  BeforeToolCallResult,
  HookNote,
  HookScope,
  OneOrMany,
} from "./contracts/agent-hooks.js";
export type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  ElicitationRequest,
  ElicitationResponse,
  Elicitor,
} from "./contracts/callbacks.js";
export { type ContentBlock, textOf } from "./contracts/content.js";
export { type Diagnostic, formatDiagnostic } from "./contracts/diagnostic.js";
export {
  type DecisionBasis,
  PERMISSION_MODES,
  type PermissionMode,
  type PolicyDecision,
  PolicyEngine,
  type RuleOrigin,
  type Verdict,
} from "./contracts/policy-engine.js";
export { Provider } from "./contracts/provider.js";
export type { Tool } from "./contracts/tool.js";
export type {
  JsonSchema,
  ToolAudience,
  ToolDefinition,
  ToolIcon,
  ToolSafety,
} from "./contracts/tool-definition.js";
export {
  type ToolError,
  type ToolErrorCode,
  type ToolFailure,
  type ToolResult,
  type ToolSuccess,
  toolFailure,
  toolSuccess,
} from "./contracts/tool-result.js";
export type { ToolSource } from "./contracts/tool-source.js";
export type { ToolTaskStatus, ToolTaskUpdate } from "./contracts/tool-task.js";
export type { ToolTrace } from "./contracts/tool-trace.js";
export { Conversation } from "./conversation/conversation.js";
export {
  type ConfigOptions,
  type CreateAgentOptions,
  checkConfig,
  createAgent,
  DEFAULT_MAX_TURNS,
} from "./create-agent.js";
export {
  ConfigError,
  type ConfigErrorCode,
  type ConfigErrorCodes,
  type ErrorFault,
  ModelError,
  type ModelErrorCode,
  type ModelErrorCodes,
  PluginError,
  type PluginErrorCode,
  type PluginErrorCodes,
  PseudoClaudeError,
  SystemError,
  type SystemErrorCode,
  type SystemErrorCodes,
  ToolSourceError,
  type ToolSourceErrorCode,
  type ToolSourceErrorCodes,
  UsageError,
  type UsageErrorCode,
  type UsageErrorCodes,
} from "./errors.js";
export {
  IN_PROCESS_JOURNAL,
  type InterruptedSideEffect,
  type JournalDecisionRequest,
  type RunJournal,
} from "./journal/run-journal.js";
export {
  StructuredOutputError,
  type StructuredOutputErrorCode,
} from "./output/output-error.js";
export {
  type JsonSchemaOutput,
  jsonSchemaOutput,
  type OutputFormat,
  type OutputIssue,
  type OutputOf,
  type OutputSchema,
} from "./output/output-schema.js";
export { definePlugin, type Plugin } from "./plugin/plugin.js";
export type { PolicyOptions } from "./policy/policy-settings.js";
export { SessionRules, sessionRuleKey } from "./policy/session-rules.js";
export type { SystemPromptBudget } from "./prompt/default-system-prompt-builder.js";
export type {
  ProviderFactory,
  ProviderRegistry,
  ProviderSettings,
} from "./provider/provider-registry.js";
export { FileSessionStore, sessionFolder } from "./session/file-session-store.js";
export { MemorySessionStore } from "./session/memory-session-store.js";
export { replaySession } from "./session/replay-session.js";
export {
  isSessionId,
  type LoadedSession,
  type SessionEntry,
  SessionStore,
  type SessionSummary,
  summarizeSession,
} from "./session/session-store.js";
export { type SessionTask, sessionTasks } from "./session/session-tasks.js";
export type { ToolSearchCapability, ToolSearchOutcome } from "./tool-search/search-tool.js";
export {
  summarizeToolOffer,
  type ToolOffer,
  type ToolOfferSummary,
  type ToolSearchEngineInUse,
  type ToolState,
  toolStates,
} from "./tool-search/tool-offer.js";
export {
  TOOL_SEARCH_ENGINES,
  TOOL_SEARCH_MODES,
  type ToolPin,
  type ToolSearchEngine,
  type ToolSearchMode,
  type ToolSearchOptions,
  type ToolSearchSettings,
} from "./tool-search/tool-search-options.js";
export { type DefineToolSpec, defineTool } from "./tools/define-tool.js";
export { INLINE_TOOL_SOURCE } from "./tools/inline-tool-source.js";
export { GEN_AI_ATTRIBUTES, PSEUDOCLAUDE_ATTRIBUTES } from "./tracing/trace-attributes.js";
export { TRACER_NAME, type TracingOptions } from "./tracing/tracing-options.js";
export type { StreamResponseInit } from "./web/stream-responses.js";
