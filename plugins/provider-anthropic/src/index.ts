/**
 * @pseudoclaude/provider-anthropic - Claude through the official `@anthropic-ai/sdk`:
 * streaming Messages API, tool use, images in tool results, prompt caching, server-side tool
 * search, SDK retries.
 */
export {
  ANTHROPIC_API_KEY_ENV,
  ANTHROPIC_BASE_URL_ENV,
  type AnthropicOptions,
  type AnthropicToolSearch,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  DEFAULT_ANTHROPIC_MODEL,
} from "./anthropic-options.js";
export { anthropicPlugin } from "./anthropic-plugin.js";
export { AnthropicProvider, anthropic } from "./anthropic-provider.js";
export { toModelError } from "./model-error.js";
export { type AnthropicSettings, resolveAnthropicSettings } from "./resolve-settings.js";
export { TOOL_SEARCH_BETA } from "./server-tool-search.js";
export { toStopReason } from "./stop-reason.js";
export { translateStream } from "./stream-events.js";
export {
  ANTHROPIC_TOOL_RESULT_CONTENT,
  type AnthropicMessageOptions,
  toAnthropicMessages,
  toToolResultBlock,
} from "./wire-messages.js";
export { AnthropicToolProjector, toInputSchema, type WireTools } from "./wire-tools.js";
