import { ConfigError } from "@pseudoclaude/core";

/** Claude models take 200k input tokens (the 1M-token window is an opt-in beta, set it yourself). */
export const ANTHROPIC_CONTEXT_WINDOW = 200_000;

/** The window of `model`: the configured one wins; every Claude model has 200k by default. */
export function anthropicContextWindow(
  model: string,
  configured: number | undefined,
): number | undefined {
  if (configured !== undefined) {
    if (!Number.isInteger(configured) || configured <= 0)
      throw new ConfigError(
        "invalid_provider_option",
        `Anthropic contextWindow must be a positive integer (got ${configured}).`,
        { details: { provider: "anthropic", option: "contextWindow" } },
      );
    return configured;
  }
  return model.startsWith("claude") ? ANTHROPIC_CONTEXT_WINDOW : undefined;
}
