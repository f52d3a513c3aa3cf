/**
 * @pseudoclaude/provider-openai - OpenAI and OpenAI-compatible servers (Ollama, vLLM,
 * llama.cpp, LM Studio, OpenRouter) through the official `openai` SDK: streaming Chat
 * Completions with function tools, or the Responses API with its hosted tool search.
 */
export { argumentsText, CHAT_TOOL_RESULT_CONTENT, toChatMessages } from "./chat-messages.js";
export { translateChatStream } from "./chat-stream.js";
export {
  isOpenAIEndpoint,
  supportsHostedToolSearch,
  usesHostedToolSearch,
} from "./hosted-search-support.js";
export { HOSTED_TOOL_SEARCH } from "./hosted-tool-search.js";
export { toModelError } from "./model-error.js";
export {
  DEFAULT_OPENAI_MAX_TOOLS,
  DEFAULT_OPENAI_MODEL,
  OPENAI_API_KEY_ENV,
  OPENAI_BASE_URL_ENV,
  type OpenAIApi,
  type OpenAIOptions,
} from "./openai-options.js";
export { openaiPlugin } from "./openai-plugin.js";
export { OpenAIProvider, openai } from "./openai-provider.js";
export { parseArguments } from "./parse-arguments.js";
export { type OpenAISettings, resolveOpenAISettings } from "./resolve-settings.js";
export {
  RESPONSES_TOOL_RESULT_CONTENT,
  type ResponsesInputOptions,
  toResponsesInput,
} from "./responses-input.js";
export { translateResponsesStream } from "./responses-stream.js";
export { chatStopReason } from "./stop-reason.js";
export { removeAddedNulls, toStrictSchema } from "./strict-schema.js";
export { toolResultText } from "./tool-result-text.js";
export { toUsage } from "./usage.js";
export {
  MAX_NAMESPACE_DESCRIPTION,
  type SearchableFunction,
  toNamespaces,
} from "./wire-namespaces.js";
export {
  OpenAIToolProjector,
  responsesFunction,
  toParameters,
  type WireFunction,
  type WireTools,
} from "./wire-tools.js";
