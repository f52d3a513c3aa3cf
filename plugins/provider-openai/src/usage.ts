import type { ProviderUsage } from "@pseudoclaude/core/provider";

/**
 * Usage in the kernel's terms. OpenAI counts cached tokens inside the input tokens; the kernel
 * (like Anthropic) counts them apart, so `inputTokens + cacheReadTokens` is the whole prompt
 * whichever provider runs.
 */
export function toUsage(
  input: number | undefined,
  output: number | undefined,
  cached: number | undefined,
): ProviderUsage {
  const usage: ProviderUsage = {};
  const cacheRead = cached ?? 0;
  if (typeof input === "number") usage.inputTokens = Math.max(0, input - cacheRead);
  if (typeof output === "number") usage.outputTokens = output;
  if (cached !== undefined) usage.cacheReadTokens = cached;
  return usage;
}
