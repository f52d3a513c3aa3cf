import { ConfigError } from "@pseudoclaude/core";
import {
  DEFAULT_OPENAI_MAX_TOOLS,
  DEFAULT_OPENAI_MODEL,
  OPENAI_API_KEY_ENV,
  OPENAI_BASE_URL_ENV,
  type OpenAIApi,
  type OpenAIOptions,
} from "./openai-options.js";

/** Options with every default applied and the key found. */
export interface OpenAISettings {
  model: string;
  apiKey: string;
  baseURL: string | undefined;
  api: OpenAIApi;
  strict: boolean;
  strictOutput: boolean;
  maxTokens: number | undefined;
  maxTokensField: "max_completion_tokens" | "max_tokens";
  streamUsage: boolean;
  maxRetries: number | undefined;
  timeout: number | undefined;
  headers: Record<string, string> | undefined;
  organization: string | undefined;
  project: string | undefined;
  reasoningEffort: OpenAIOptions["reasoningEffort"];
  /** Undefined: no limit. */
  maxTools: number | undefined;
  /** As given (see `usesHostedToolSearch` for what it decides). */
  toolSearch: "auto" | "hosted" | false;
}

/**
 * Apply defaults: code options first, then the environment as the SDK reads it. A missing
 * key fails here, naming the variable to set, rather than as a 401 on the first turn.
 */
export function resolveOpenAISettings(options: OpenAIOptions): OpenAISettings {
  const env = options.env ?? process.env;
  const keyVariable = options.apiKeyEnv ?? OPENAI_API_KEY_ENV;
  const apiKey = options.apiKey ?? nonEmpty(env[keyVariable]);
  if (apiKey === undefined) {
    throw new ConfigError(
      "missing_api_key",
      `No API key for the OpenAI provider: set the ${keyVariable} environment variable.`,
      { details: { provider: "openai", variable: keyVariable } },
    );
  }
  const api = options.api ?? "chat";
  if (api !== "chat" && api !== "responses") {
    throw new ConfigError(
      "invalid_provider_option",
      `OpenAI api must be "chat" or "responses" (got ${JSON.stringify(api)}).`,
      { details: { provider: "openai", option: "api" } },
    );
  }
  if (
    options.maxTokens !== undefined &&
    (!Number.isInteger(options.maxTokens) || options.maxTokens <= 0)
  ) {
    throw new ConfigError(
      "invalid_provider_option",
      `OpenAI maxTokens must be a positive integer (got ${options.maxTokens}).`,
      { details: { provider: "openai", option: "maxTokens" } },
    );
  }
  return {
    model: options.model ?? DEFAULT_OPENAI_MODEL,
    apiKey,
    baseURL: options.baseURL ?? nonEmpty(env[OPENAI_BASE_URL_ENV]),
    api,
    strict: options.strict ?? false,
    strictOutput: options.strictOutput ?? true,
    maxTokens: options.maxTokens,
    maxTokensField: options.maxTokensField ?? "max_completion_tokens",
    reasoningEffort: options.reasoningEffort,
    streamUsage: options.streamUsage ?? true,
    maxRetries: options.maxRetries,
    timeout: options.timeout,
    headers: options.headers,
    organization: options.organization ?? nonEmpty(env.OPENAI_ORG_ID),
    project: options.project ?? nonEmpty(env.OPENAI_PROJECT_ID),
    maxTools: maxTools(options.maxTools),
    toolSearch: toolSearch(options.toolSearch),
  };
}

function maxTools(option: OpenAIOptions["maxTools"]): number | undefined {
  if (option === undefined) return DEFAULT_OPENAI_MAX_TOOLS;
  if (option === false) return undefined;
  if (!Number.isInteger(option) || option <= 0) {
    throw new ConfigError(
      "invalid_provider_option",
      `OpenAI maxTools must be a positive integer or false (got ${JSON.stringify(option)}).`,
      { details: { provider: "openai", option: "maxTools" } },
    );
  }
  return option;
}

function toolSearch(option: OpenAIOptions["toolSearch"]): "auto" | "hosted" | false {
  if (option === undefined) return "auto";
  if (option === "auto" || option === "hosted" || option === false) return option;
  throw new ConfigError(
    "invalid_provider_option",
    `OpenAI toolSearch must be "auto", "hosted" or false (got ${JSON.stringify(option)}).`,
    { details: { provider: "openai", option: "toolSearch" } },
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
