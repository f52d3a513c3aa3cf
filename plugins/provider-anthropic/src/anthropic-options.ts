/**
 * The current Claude Sonnet at the time of writing (the newest Sonnet in the SDK's `Model`
 * union). Override with the `model` option, config `provider.model` or `--model`.
 */
export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-5-5";

/** The Messages API needs a ceiling on output tokens; this leaves room for long answers. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192;

/** The variable the official SDK reads the key from. */
export const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";

/** The variable the official SDK reads the endpoint from. */
export const ANTHROPIC_BASE_URL_ENV = "ANTHROPIC_BASE_URL";

/**
 * The API's own tool search, which finds deferred tools on the server: `bm25` (natural-language
 * queries) or `regex` (the model writes patterns).
 */
export type AnthropicToolSearch = "bm25" | "regex";

/** Options of {@link anthropic}. Everything is optional: the environment fills the rest. */
export interface AnthropicOptions {
  /** Model id. Default {@link DEFAULT_ANTHROPIC_MODEL}. */
  model?: string | undefined;
  /** The API key. Default: the variable named by `apiKeyEnv`. */
  apiKey?: string | undefined;
  /** Environment variable holding the key. Default `ANTHROPIC_API_KEY`. */
  apiKeyEnv?: string | undefined;
  /** Endpoint. Default: `ANTHROPIC_BASE_URL`, else the SDK's (api.anthropic.com). */
  baseURL?: string | undefined;
  /**
   * The model's context window in tokens, so long conversations are compacted before they no
   * longer fit. Default: the model family's (see docs/context.md), none for unknown models.
   */
  contextWindow?: number | undefined;
  /** `max_tokens` of every request. Default {@link DEFAULT_ANTHROPIC_MAX_TOKENS}. */
  maxTokens?: number | undefined;
  /** Retries on 408/409/429/5xx and connection errors, as the SDK does them. Default 2. */
  maxRetries?: number | undefined;
  /** Per-request timeout in ms, as the SDK applies it. Default 10 minutes. */
  timeout?: number | undefined;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string> | undefined;
  /**
   * Extended thinking with this many tokens of budget (must be below `maxTokens`). The model's
   * reasoning streams as `reasoning-delta` events, and its signed thinking blocks go back to the
   * API with the tool results, as the API requires. Default: off.
   */
  thinkingBudgetTokens?: number | undefined;
  /** Mark the system prompt and the tool definitions as a cache prefix. Default true. */
  promptCaching?: boolean | undefined;
  /**
   * Tool search for wide tool sets: the API's server-side search (`bm25` or `regex`) finds the
   * tools the agent defers, which are sent with `defer_loading` and never fill the prompt. `false`
   * leaves the search to the agent's own `tool_search` tool. Default `bm25`. See
   * docs/tool-search.md.
   */
  toolSearch?: AnthropicToolSearch | false | undefined;
  /** Where keys and endpoints are read from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}
