import { resolveContextWindow } from "@pseudoclaude/core/provider";

/** Claude models take 200k input tokens (the 1M-token window is an opt-in beta, set it yourself). */
export const ANTHROPIC_CONTEXT_WINDOW = 200_000;

/** The window of `model`: the configured one wins; every Claude model has 200k by default. */
export function anthropicContextWindow(
  model: string,
  configured: number | undefined,
): number | undefined {
  return resolveContextWindow(
    "anthropic",
    configured,
    model.startsWith("claude") ? ANTHROPIC_CONTEXT_WINDOW : undefined,
  );
}
