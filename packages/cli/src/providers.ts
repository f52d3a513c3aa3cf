import path from "node:path";
import { claudeModelId } from "@pseudoclaude/compat-claude-code";
import { ConfigError, type LoadedConfig, type Provider } from "@pseudoclaude/core";
import type { WorkspaceConsent } from "@pseudoclaude/core/consent";
import {
  type ProviderSection,
  readProviderSection,
  requireValidProviderSection,
} from "@pseudoclaude/core/provider";
import { ScriptedProvider } from "@pseudoclaude/provider-scripted";
import { CliConfigError, CliUsageError } from "./cli-errors.js";
import { importOptional } from "./optional-package.js";

/** What the command line says about the model. Paths are resolved against `cwd`. */
export interface ProviderFlags {
  model?: string | undefined;
  script?: string | undefined;
  cwd: string;
  /** Where keys and endpoints are read from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Builds one provider from the flags and the config's `provider` section (already merged
 * across layers; empty when the config names another provider). Async: a provider's package
 * is imported only when it is chosen.
 */
export type ProviderFactory = (
  flags: ProviderFlags,
  section: ProviderSection,
) => Provider | Promise<Provider>;

type AnthropicModule = typeof import("@pseudoclaude/provider-anthropic");
type OpenAIModule = typeof import("@pseudoclaude/provider-openai");

/**
 * The SDK-backed providers are optional dependencies of the CLI: installed by default, left
 * out with `--omit=optional`, and imported only when chosen, so a command that talks to no
 * model (or to the scripted one) neither loads nor needs their SDKs.
 */
const loadAnthropic = () =>
  importOptional<AnthropicModule>("@pseudoclaude/provider-anthropic", "The anthropic provider");
const loadOpenAI = (name: string) =>
  importOptional<OpenAIModule>("@pseudoclaude/provider-openai", `The ${name} provider`);

/** Options every SDK-backed provider takes, from flags first, then config. */
function common(flags: ProviderFlags, section: ProviderSection) {
  return {
    model: flags.model ?? section.model,
    apiKeyEnv: section.api_key_env,
    baseURL: section.base_url,
    maxTokens: section.max_tokens,
    maxRetries: section.max_retries,
    timeout: section.timeout_ms,
    contextWindow: section.context_window,
    env: flags.env ?? process.env,
  };
}

/**
 * Providers `--provider NAME` (or config `provider.name`) can choose. Adding one is one entry
 * here; nothing else in the CLI changes.
 */
export const PROVIDERS: Readonly<Record<string, ProviderFactory>> = {
  scripted: (flags) => {
    if (!flags.script) {
      throw new CliUsageError(
        "missing_script",
        "--provider scripted needs --script FILE (a JSON list of model turns).",
        { details: { flag: "script" } },
      );
    }
    // fromFile throws a ConfigError for an unreadable or invalid script: a usage-class error.
    return ScriptedProvider.fromFile(path.resolve(flags.cwd, flags.script));
  },
  anthropic: async (flags, section) => {
    const { anthropic } = await loadAnthropic();
    // Claude Code's aliases (`--model opus`, its settings' `model`) name the family's model.
    const model = flags.model ?? section.model ?? section.claude_model;
    return anthropic({
      ...common(flags, section),
      ...(model !== undefined ? { model: claudeModelId(model) } : {}),
      thinkingBudgetTokens: section.thinking_budget_tokens,
    });
  },
  openai: async (flags, section) => {
    const { openai } = await loadOpenAI("openai");
    return openai({
      ...common(flags, section),
      api: section.api,
      strict: section.strict,
      reasoningEffort: section.reasoning_effort,
    });
  },
  /**
   * A local or third-party server that speaks the OpenAI API (Ollama, vLLM, llama.cpp, LM
   * Studio, OpenRouter): the endpoint and model are required, the key optional (local servers
   * ignore it).
   */
  "openai-compatible": async (flags, section) => {
    const { OPENAI_API_KEY_ENV, OPENAI_BASE_URL_ENV, openai } =
      await loadOpenAI("openai-compatible");
    const options = { ...common(flags, section), api: section.api, strict: section.strict };
    if (!options.baseURL && !options.env[OPENAI_BASE_URL_ENV]) {
      throw new ConfigError(
        "missing_base_url",
        `The openai-compatible provider needs the server's URL: set provider.base_url in the config or the ${OPENAI_BASE_URL_ENV} environment variable.`,
        { details: { provider: "openai-compatible", variable: OPENAI_BASE_URL_ENV } },
      );
    }
    if (!options.model) {
      throw new ConfigError(
        "missing_model",
        "The openai-compatible provider needs the model the server serves: --model M or provider.model in the config.",
        { details: { provider: "openai-compatible" } },
      );
    }
    const keyVariable = options.apiKeyEnv ?? OPENAI_API_KEY_ENV;
    // Servers that check no key still get a syntactically valid header.
    const apiKey = options.env[keyVariable] ? undefined : "not-needed";
    return openai({ ...options, apiKey });
  },
};

/**
 * The provider for `run`. Which one: `--provider`, else `--script` (meaning `scripted`), else
 * config `provider.name`; none at all gives `undefined` (a provider plugin may still
 * register one). Settings: flags, then the project and user config (when it is about the
 * same provider), then the environment, then the provider's defaults.
 */
export async function createProvider(
  name: string | undefined,
  flags: ProviderFlags,
  config: LoadedConfig,
  /** The user's approvals for the workspace: its endpoint and key variable need one. */
  consent?: WorkspaceConsent,
): Promise<Provider | undefined> {
  const read = readProviderSection(config, consent);
  const configured = read.section.name;
  const chosen = name ?? (flags.script !== undefined ? "scripted" : configured);
  if (chosen === undefined) {
    requireValidProviderSection(read);
    return undefined;
  }
  const factory = Object.hasOwn(PROVIDERS, chosen) ? PROVIDERS[chosen] : undefined;
  if (!factory) {
    const fromConfig = name === undefined && flags.script === undefined;
    throw new (fromConfig ? CliConfigError : CliUsageError)(
      "unknown_provider",
      `Unknown provider "${chosen}"${fromConfig ? " (config provider.name)" : ""}. Available: ${Object.keys(PROVIDERS).join(", ")}.`,
      {
        details: fromConfig
          ? { section: "provider", value: chosen }
          : { flag: "provider", value: chosen },
      },
    );
  }
  // The config's settings belong to the provider it names; another one chosen by flag
  // starts from its own defaults.
  const applies = configured === undefined || configured === chosen;
  const section = applies ? requireValidProviderSection(read) : {};
  return factory(flags, section);
}
