/**
 * `@pseudoclaude/core/provider`: what authors of model providers use beyond the root entry
 * point. A provider turns a {@link ProviderRequest} into a stream of {@link ProviderEvent}s;
 * it maps registry tool names to its API with a {@link ToolNameMap} and its SDK's errors to
 * `ModelError`s with {@link sdkModelError}, so every provider names tools and failures alike.
 *
 * @module @pseudoclaude/core/provider
 */
export type {
  AssistantMessage,
  Message,
  ToolResultMessage,
  UserMessage,
} from "../contracts/message.js";
export type {
  ProviderEvent,
  ProviderRequest,
  ProviderToolSearch,
  ProviderUsage,
  StopReason,
} from "../contracts/provider.js";
export type { OutputFormat } from "../output/output-schema.js";
export { resolveContextWindow } from "../provider/context-window.js";
export {
  type ApiErrorFacts,
  describeCause,
  modelErrorCode,
  type SdkErrorClasses,
  type SdkErrorContext,
  sdkModelError,
  withoutSecret,
} from "../provider/provider-errors.js";
export {
  parseProviderChoice,
  providerFromRegistry,
} from "../provider/provider-registry.js";
export {
  DEFAULT_KEY_VARIABLES,
  PROVIDER_SECTION,
  PROVIDER_SECTION_PLUGIN,
  PROVIDER_SECTION_SPEC,
  PROVIDER_SUBJECT,
  PROVIDER_WIDENING,
  type ProviderSection,
  type ProviderSectionRead,
  providerConsentRequest,
  providerSectionPlugin,
  providerSectionSchema,
  readProviderSection,
  requireValidProviderSection,
} from "../provider/provider-section.js";
export { createToolNameMap, type ToolNameMap, wireToolName } from "../provider/tool-name-map.js";
export { type RequestSignal, requestSignal } from "../util/request-signal.js";
