import {
  ConfigError,
  type Diagnostic,
  definePlugin,
  formatDiagnostic,
  type LoadedConfig,
  type Plugin,
} from "@pseudoclaude/core";
import { validateSection } from "@pseudoclaude/core/plugin";
import { z } from "zod";

/** Config key of the model settings. */
export const PROVIDER_SECTION = "provider";

/**
 * Config section `provider`: which model the CLI runs and how to reach it. Keys themselves
 * never go in config: `api_key_env` names the variable that holds one.
 */
export const providerSectionSchema = z
  .object({
    name: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    api_key_env: z
      .string()
      .regex(
        /^[A-Za-z_][A-Za-z0-9_]*$/,
        "must name an environment variable (the key itself never goes in config)",
      )
      .optional(),
    base_url: z.url().optional(),
    max_tokens: z.number().int().positive().optional(),
    max_retries: z.number().int().min(0).optional(),
    timeout_ms: z.number().int().positive().optional(),
    api: z.enum(["chat", "responses"]).optional(),
    strict: z.boolean().optional(),
    /** OpenAI reasoning effort (reasoning models). */
    reasoning_effort: z.enum(["minimal", "low", "medium", "high"]).optional(),
    /** The model's context window in tokens, over the provider's default for the model. */
    context_window: z.number().int().positive().optional(),
    /** Anthropic extended thinking budget (tokens). */
    thinking_budget_tokens: z.number().int().min(1024).optional(),
  })
  .strict();

export type ProviderSection = z.infer<typeof providerSectionSchema>;

/** The merged section and what was wrong with it. */
export interface ProviderSectionRead {
  section: ProviderSection;
  diagnostics: Diagnostic[];
}

/**
 * Read both layers. The project layer overrides the user layer key by key, except when it
 * names a different provider: then the user's settings (another provider's model or
 * endpoint) would not fit, and the project entry stands alone. An invalid layer is skipped,
 * with diagnostics that point at the value.
 */
export function readProviderSection(config: LoadedConfig): ProviderSectionRead {
  let section: ProviderSection = {};
  const diagnostics: Diagnostic[] = [];
  for (const entry of config.section(PROVIDER_SECTION)) {
    const checked = validateSection(providerSectionSchema, entry, {
      sectionKey: PROVIDER_SECTION,
      source: "cli",
    });
    if (!checked.ok) {
      diagnostics.push(...checked.diagnostics);
      continue;
    }
    const layer = checked.value;
    const switches =
      layer.name !== undefined && section.name !== undefined && layer.name !== section.name;
    section = switches ? { ...layer } : { ...section, ...layer };
  }
  return { section, diagnostics };
}

/** The section, or a ConfigError listing every problem with its file, line and column. */
export function requireValidProviderSection(read: ProviderSectionRead): ProviderSection {
  if (read.diagnostics.length === 0) return read.section;
  throw new ConfigError(
    "config_invalid",
    `Invalid "${PROVIDER_SECTION}" config:\n${read.diagnostics.map(formatDiagnostic).join("\n")}`,
    { details: { section: PROVIDER_SECTION } },
  );
}

/**
 * Claims and checks the `provider` section for commands that do not start a model (`tools`,
 * `call`), so a mistake there shows at start-up instead of as an "unknown section".
 */
export function providerSectionPlugin(): Plugin {
  return definePlugin({
    name: "cli-provider-section",
    register(context) {
      for (const diagnostic of readProviderSection(context.config).diagnostics)
        context.report(diagnostic);
    },
  });
}
