import { ConfigError } from "@pseudoclaude/core";
import {
  ANTHROPIC_API_KEY_ENV,
  ANTHROPIC_BASE_URL_ENV,
  type AnthropicOptions,
  type AnthropicToolSearch,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  DEFAULT_ANTHROPIC_MODEL,
} from "./anthropic-options.js";

/** Options with every default applied and the key found. */
export interface AnthropicSettings {
  model: string;
  apiKey: string;
  baseURL: string | undefined;
  maxTokens: number;
  maxRetries: number | undefined;
  timeout: number | undefined;
  headers: Record<string, string> | undefined;
  promptCaching: boolean;
  thinkingBudgetTokens: number | undefined;
  /** The API's tool search, or `false` for the agent's own. */
  toolSearch: AnthropicToolSearch | false;
}

/**
 * Apply defaults: code options first, then the environment as the SDK reads it. A missing
 * key fails here, naming the variable to set, rather than as a 401 on the first turn.
 */
export function resolveAnthropicSettings(options: AnthropicOptions): AnthropicSettings {
  const env = options.env ?? process.env;
  const keyVariable = options.apiKeyEnv ?? ANTHROPIC_API_KEY_ENV;
  const apiKey = options.apiKey ?? nonEmpty(env[keyVariable]);
  if (apiKey === undefined) {
    throw new ConfigError(
      "missing_api_key",
      `No API key for the Anthropic provider: set the ${keyVariable} environment variable.`,
      { details: { provider: "anthropic", variable: keyVariable } },
    );
  }
  const maxTokens = options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  if (!Number.isInteger(maxTokens) || maxTokens <= 0) {
    throw new ConfigError(
      "invalid_provider_option",
      `Anthropic maxTokens must be a positive integer (got ${maxTokens}).`,
      { details: { provider: "anthropic", option: "maxTokens" } },
    );
  }
  return {
    model: options.model ?? DEFAULT_ANTHROPIC_MODEL,
    apiKey,
    baseURL: options.baseURL ?? nonEmpty(env[ANTHROPIC_BASE_URL_ENV]),
    maxTokens,
    maxRetries: options.maxRetries,
    timeout: options.timeout,
    headers: options.headers,
    promptCaching: options.promptCaching ?? true,
    thinkingBudgetTokens: thinkingBudget(options.thinkingBudgetTokens, maxTokens),
    toolSearch: toolSearch(options.toolSearch),
  };
}

function toolSearch(option: AnthropicOptions["toolSearch"]): AnthropicToolSearch | false {
  if (option === undefined) return "bm25";
  if (option === false || option === "bm25" || option === "regex") return option;
  throw new ConfigError(
    "invalid_provider_option",
    `Anthropic toolSearch must be "bm25", "regex" or false (got ${JSON.stringify(option)}).`,
    { details: { provider: "anthropic", option: "toolSearch" } },
  );
}

function thinkingBudget(budget: number | undefined, maxTokens: number): number | undefined {
  if (budget === undefined) return undefined;
  // The API wants at least 1024 and less than max_tokens; say so here, not as a 400 later.
  if (!Number.isInteger(budget) || budget < 1024 || budget >= maxTokens) {
    throw new ConfigError(
      "invalid_provider_option",
      `Anthropic thinkingBudgetTokens must be an integer from 1024 up to maxTokens - 1 (got ${budget}, maxTokens ${maxTokens}).`,
      { details: { provider: "anthropic", option: "thinkingBudgetTokens" } },
    );
  }
  return budget;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
