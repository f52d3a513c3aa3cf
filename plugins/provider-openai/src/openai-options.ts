/**
 * A current general-purpose OpenAI model (the one the SDK's own README uses for Chat
 * Completions and Responses). Override with the `model` option, config `provider.model` or
 * `--model`; OpenAI-compatible servers need their own model name.
 */
export const DEFAULT_OPENAI_MODEL = "gpt-5.5";

/** The variable the official SDK reads the key from. */
export const OPENAI_API_KEY_ENV = "OPENAI_API_KEY";

/** The variable the official SDK reads the endpoint from. */
export const OPENAI_BASE_URL_ENV = "OPENAI_BASE_URL";

/** Which OpenAI API the provider speaks. */
export type OpenAIApi = "chat" | "responses";

/** How many function tools OpenAI takes in one request, in both APIs. */
export const DEFAULT_OPENAI_MAX_TOOLS = 128;

/** Options of {@link openai}. Everything is optional: the environment fills the rest. */
export interface OpenAIOptions {
  /** Model id. Default {@link DEFAULT_OPENAI_MODEL}. */
  model?: string | undefined;
  /** The API key. Default: the variable named by `apiKeyEnv`. */
  apiKey?: string | undefined;
  /** Environment variable holding the key. Default `OPENAI_API_KEY`. */
  apiKeyEnv?: string | undefined;
  /**
   * Endpoint, e.g. `http://localhost:11434/v1` for Ollama. Default: `OPENAI_BASE_URL`, else
   * the SDK's (api.openai.com).
   */
  baseURL?: string | undefined;
  /** `chat` (Chat Completions, every compatible server) or `responses`. Default `chat`. */
  api?: OpenAIApi | undefined;
  /**
   * Send tool schemas in strict mode (constrained decoding). Schemas strict mode cannot
   * express are sent non-strict, tool by tool. Default false.
   */
  strict?: boolean | undefined;
  /**
   * Send a run's output schema (`run(prompt, { output })`) in strict mode where strict mode can
   * express it, so the answer cannot miss it. Default true; false for servers that refuse it.
   */
  strictOutput?: boolean | undefined;
  /**
   * Reasoning effort for reasoning models. With the Responses API the reasoning summary streams
   * as `reasoning-delta` events and the encrypted reasoning items go back with the tool results
   * (the conversation is not stored on the server). Default: the model's.
   */
  reasoningEffort?: "minimal" | "low" | "medium" | "high" | undefined;
  /**
   * The model's context window in tokens, so long conversations are compacted before they no
   * longer fit. Default: the model family's (see docs/context.md), none for unknown models.
   */
  contextWindow?: number | undefined;
  /** Output token limit. Default: the server's. */
  maxTokens?: number | undefined;
  /**
   * The Chat Completions field for `maxTokens`: OpenAI's current `max_completion_tokens`, or
   * `max_tokens` for servers that only know the older name. Default `max_completion_tokens`.
   */
  maxTokensField?: "max_completion_tokens" | "max_tokens" | undefined;
  /** Ask for usage in the stream (`stream_options.include_usage`). Default true. */
  streamUsage?: boolean | undefined;
  /** Retries on 408/409/429/5xx and connection errors, as the SDK does them. Default 2. */
  maxRetries?: number | undefined;
  /** Per-request timeout in ms, as the SDK applies it. Default 10 minutes. */
  timeout?: number | undefined;
  /** Extra HTTP headers on every request (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string> | undefined;
  /** `OpenAI-Organization` / `OpenAI-Project`. Default `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID`. */
  organization?: string | undefined;
  project?: string | undefined;
  /**
   * The most tools one request may carry: past it the agent defers tools to tool search rather
   * than have the request refused. Default {@link DEFAULT_OPENAI_MAX_TOOLS} (OpenAI's limit);
   * a compatible server may take more or fewer; `false` for no limit.
   */
  maxTools?: number | false | undefined;
  /**
   * Who finds the tools the agent defers. `auto`: OpenAI's hosted `tool_search` where it runs,
   * i.e. the Responses API against OpenAI's own endpoint (no `baseURL`, or api.openai.com) with
   * gpt-5.4 or later (its guide: only those models support it); the agent's own `tool_search`
   * tool everywhere else (Chat Completions, compatible servers, other models). `hosted`: the
   * hosted search on the Responses API whatever the endpoint and model (a proxy or Azure that
   * passes it through). `false`: always the agent's own. Default `auto`. See
   * docs/providers.md and docs/tool-search.md.
   */
  toolSearch?: "auto" | "hosted" | false | undefined;
  /** Where keys and endpoints are read from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}
