import { ConfigError } from "../errors.js";

/**
 * A provider's context window: the configured one (a positive integer, else a ConfigError
 * naming the provider and option), or the model family's default, or none.
 */
export function resolveContextWindow(
  provider: string,
  configured: number | undefined,
  familyDefault: number | undefined,
): number | undefined {
  if (configured === undefined) return familyDefault;
  if (!Number.isInteger(configured) || configured <= 0)
    throw new ConfigError(
      "invalid_provider_option",
      `${provider} contextWindow must be a positive integer (got ${configured}).`,
      { details: { provider, option: "contextWindow" } },
    );
  return configured;
}
