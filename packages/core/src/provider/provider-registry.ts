import type { LoadedConfig } from "../config/load-config.js";
import { didYouMean } from "../config/suggest-key.js";
import type { WorkspaceConsent } from "../consent/consent-store.js";
import type { Provider } from "../contracts/provider.js";
import { ConfigError } from "../errors.js";
import {
  type ProviderSection,
  readProviderSection,
  requireValidProviderSection,
} from "./provider-section.js";

/**
 * What a provider is made from: the config's `provider` section in the option names the
 * provider packages' own factories take, so `openai` and `anthropic` are factories as they
 * are (`providers: { openai, anthropic }`). Only keys the config sets are present.
 */
export interface ProviderSettings {
  model?: string;
  apiKeyEnv?: string;
  baseURL?: string;
  maxTokens?: number;
  maxRetries?: number;
  /** Milliseconds (config `timeout_ms`). */
  timeout?: number;
  contextWindow?: number;
  /** OpenAI: `chat` or `responses`. */
  api?: "chat" | "responses";
  /** OpenAI: strict tool schemas. */
  strict?: boolean;
  /** OpenAI reasoning models. */
  reasoningEffort?: "minimal" | "low" | "medium" | "high";
  /** Anthropic extended thinking. */
  thinkingBudgetTokens?: number;
}

/** Makes the provider `name` stands for (`openai`, `anthropic`, one of your own). */
export type ProviderFactory = (settings: ProviderSettings) => Provider | Promise<Provider>;

/** Provider factories by the name config and `provider: "name:model"` use. */
export type ProviderRegistry = Readonly<Record<string, ProviderFactory>>;

/** `openai:gpt-5` → `{ name: "openai", model: "gpt-5" }`; `openai` → no model. */
export function parseProviderChoice(choice: string): { name: string; model?: string } {
  const colon = choice.indexOf(":");
  if (colon === -1) return { name: choice.trim() };
  const model = choice.slice(colon + 1).trim();
  return { name: choice.slice(0, colon).trim(), ...(model ? { model } : {}) };
}

/** The section in the factories' option names. */
function settingsOf(section: ProviderSection): ProviderSettings {
  const settings: ProviderSettings = {};
  if (section.model !== undefined) settings.model = section.model;
  if (section.api_key_env !== undefined) settings.apiKeyEnv = section.api_key_env;
  if (section.base_url !== undefined) settings.baseURL = section.base_url;
  if (section.max_tokens !== undefined) settings.maxTokens = section.max_tokens;
  if (section.max_retries !== undefined) settings.maxRetries = section.max_retries;
  if (section.timeout_ms !== undefined) settings.timeout = section.timeout_ms;
  if (section.context_window !== undefined) settings.contextWindow = section.context_window;
  if (section.api !== undefined) settings.api = section.api;
  if (section.strict !== undefined) settings.strict = section.strict;
  if (section.reasoning_effort !== undefined) settings.reasoningEffort = section.reasoning_effort;
  if (section.thinking_budget_tokens !== undefined)
    settings.thinkingBudgetTokens = section.thinking_budget_tokens;
  return settings;
}

/**
 * The provider `choice` names (`"openai:gpt-5"`), or, without one, the config's
 * `provider.name`; undefined when neither names one. Its settings are the config's `provider`
 * section when that section is about the same provider (a workspace's `base_url` and
 * `api_key_env` count only once the user approved them), with the choice's model over the
 * section's. An unknown name throws `ConfigError` `unknown_provider`, listing the registry.
 */
export async function providerFromRegistry(
  providers: ProviderRegistry,
  choice: string | undefined,
  config: LoadedConfig,
  consent: WorkspaceConsent,
): Promise<Provider | undefined> {
  const read = readProviderSection(config, consent);
  const configured = read.section.name;
  const chosen = choice === undefined ? undefined : parseProviderChoice(choice);
  const name = chosen?.name ?? configured;
  if (name === undefined) return undefined;
  const factory = Object.hasOwn(providers, name) ? providers[name] : undefined;
  if (!factory) {
    const known = Object.keys(providers);
    throw new ConfigError(
      "unknown_provider",
      `Unknown provider "${name}"${chosen ? "" : " (config provider.name)"}${didYouMean(name, known)}. ${known.length > 0 ? `Registered: ${known.join(", ")}` : "No providers are registered: pass createAgent({ providers: { openai, anthropic } })"}.`,
      { details: { provider: name, registered: known } },
    );
  }
  // The config's settings belong to the provider it names; another one starts from defaults.
  const section =
    configured === undefined || configured === name ? requireValidProviderSection(read) : {};
  const settings = settingsOf(section);
  if (chosen?.model !== undefined) settings.model = chosen.model;
  return factory(settings);
}
