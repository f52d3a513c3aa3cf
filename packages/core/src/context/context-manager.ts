import type { Message } from "../contracts/message.js";
import type { Provider, ProviderUsage } from "../contracts/provider.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";

/** What the agent tells its context manager before a model request. */
export interface ContextRequest {
  system: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  /** The model's context window in tokens (the provider's `contextWindow`, or configured). */
  window: number | undefined;
  /** The agent's provider: a manager summarises through it. */
  provider: Provider;
  signal: AbortSignal;
  /** Compact even under the threshold (a chat's `/compact`). */
  force?: boolean;
  /**
   * Set when the agent has `beforeCompaction` hooks: a manager calls it just before it
   * summarises (the step that loses detail), and summarises only if it resolves true.
   */
  beforeSummary?: () => Promise<boolean>;
}

/** How a compaction changed the conversation. */
export interface ContextCompaction {
  /** The conversation to send from now on (it replaces the agent's). */
  messages: Message[];
  /** Estimated input tokens of the request before and after. */
  tokensBefore: number;
  tokensAfter: number;
  /** How far it went: old tool results shortened, then old turns summarised. */
  stage: "tool_results" | "summary";
  /** Tool results shortened to a stub, and messages folded into the summary. */
  stubbedResults: number;
  summarizedMessages: number;
  /** Tokens the summary request itself used (added to the run's usage). */
  usage?: ProviderUsage;
}

/**
 * Keeps a conversation within the model's context window. Called before every model request;
 * returns a compaction when the conversation should change, undefined when it fits. Replace
 * the default (`createAgent({ contextManager })`) to compact another way; whatever it returns
 * must keep every tool call paired with its result.
 */
export interface ContextManager {
  prepare(request: ContextRequest): Promise<ContextCompaction | undefined>;
  /** What the provider reported for the last request, to calibrate estimates. */
  observe?(estimated: number, actualInputTokens: number): void;
  /** The estimate for a request, calibrated (shown before each request). */
  estimate(request: Pick<ContextRequest, "system" | "messages" | "tools">): number;
}

/** DI token for {@link ContextManager}: a plugin may register one in place of the default. */
export const ContextManager = Symbol.for("@pseudoclaude/core:ContextManager");
