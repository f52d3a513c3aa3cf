import path from "node:path";
import { type LoadedConfig, type Provider, UsageError } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";

/** What the command line says about the model. Paths are resolved against `cwd`. */
export interface ProviderFlags {
  model?: string;
  script?: string;
  cwd: string;
}

/** Builds one provider from the flags and the loaded configuration. */
export type ProviderFactory = (flags: ProviderFlags, config: LoadedConfig) => Provider;

/**
 * Providers `--provider NAME` can choose. Adding `anthropic` or `openai` is one entry here;
 * nothing else in the CLI changes.
 */
export const PROVIDERS: Readonly<Record<string, ProviderFactory>> = {
  scripted: (flags) => {
    if (!flags.script) {
      throw new UsageError(
        "missing_script",
        "--provider scripted needs --script FILE (a JSON list of model turns).",
        { details: { flag: "script" } },
      );
    }
    // fromFile throws a ConfigError for an unreadable or invalid script: a usage-class error.
    return ScriptedProvider.fromFile(path.resolve(flags.cwd, flags.script));
  },
};

/**
 * The provider named on the command line. `--script` alone means `scripted`; no provider
 * at all gives `undefined` (a provider plugin may still register one).
 */
export function createProvider(
  name: string | undefined,
  flags: ProviderFlags,
  config: LoadedConfig,
): Provider | undefined {
  const chosen = name ?? (flags.script !== undefined ? "scripted" : undefined);
  if (chosen === undefined) return undefined;
  const factory = Object.hasOwn(PROVIDERS, chosen) ? PROVIDERS[chosen] : undefined;
  if (!factory) {
    throw new UsageError(
      "unknown_provider",
      `Unknown provider "${chosen}". Available: ${Object.keys(PROVIDERS).join(", ")}.`,
      { details: { flag: "provider", value: chosen } },
    );
  }
  return factory(flags, config);
}
