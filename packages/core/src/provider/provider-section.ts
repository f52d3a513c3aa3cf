import type { z } from "zod";
import type { ConfigSectionSpec } from "../config/config-section.js";
import type { LoadedConfig } from "../config/load-config.js";
import { CONFIG_PARSE, validateSection } from "../config/validate-section.js";
import { zodSchema } from "../config/zod-schema.js";
import type { ConsentSubject, WorkspaceConsent } from "../consent/consent-store.js";
import { consentSubject } from "../consent/consent-subject.js";
import { needsConsentDiagnostic } from "../consent/needs-consent.js";
import type { WideningSetting } from "../consent/widening.js";
import { type Diagnostic, formatDiagnostic } from "../contracts/diagnostic.js";
import { ConfigError } from "../errors.js";
import { definePlugin, type Plugin } from "../plugin/plugin.js";

/** The plugin that claims and checks the `provider` section (the CLI's and `createAgent`'s). */
export const PROVIDER_SECTION_PLUGIN = "cli-provider-section";

/** Config key of the model settings. */
export const PROVIDER_SECTION = "provider";

/** Key by key, the project over the user, but a layer naming another provider stands alone. */
export const PROVIDER_SECTION_SPEC: ConfigSectionSpec = {
  key: PROVIDER_SECTION,
  owner: "cli",
  standsAloneOn: "name",
};

/**
 * Config section `provider`: which model the CLI runs and how to reach it. Keys themselves
 * never go in config: `api_key_env` names the variable that holds one.
 */
export const providerSectionSchema = zodSchema((z) =>
  z
    .object({
      name: z.string().min(1).optional(),
      model: z.string().min(1).optional(),
      /**
       * The model when the provider is `anthropic` and nothing names one (`--model`, `model`):
       * Claude Code's `model` setting, an alias (`opus`, `sonnet`, `haiku`) or a model id.
       * Another provider never reads it.
       */
      claude_model: z.string().min(1).optional(),
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
    .strict(),
);

export type ProviderSection = z.infer<ReturnType<typeof providerSectionSchema>>;

/** The merged section and what was wrong with it. */
export interface ProviderSectionRead {
  section: ProviderSection;
  /** What is wrong with the section: a command that needs the model stops on these. */
  diagnostics: Diagnostic[];
  /** Settings of the workspace left out because the user has not approved them. */
  notices: Diagnostic[];
}

/** The consent subject of a workspace's provider endpoint and key variable. */
export const PROVIDER_SUBJECT = "provider";

/** The provider settings a workspace may use only with the user's consent. */
export const PROVIDER_WIDENING: readonly WideningSetting[] = [
  {
    setting: "provider.base_url",
    kind: "setting",
    effect: "sends your API key and every prompt to a host the repository picks",
  },
  {
    setting: "provider.api_key_env",
    kind: "setting",
    effect: "sends the value of any environment variable it names, as the API key",
  },
];

/**
 * The variable each provider reads its key from when the config names none. Written here, not
 * imported from the provider packages: they are optional dependencies of the CLI, and the
 * consent check must work without them. A test checks these equal the packages' own
 * `ANTHROPIC_API_KEY_ENV` and `OPENAI_API_KEY_ENV`.
 */
export const DEFAULT_KEY_VARIABLES: Readonly<Record<string, string>> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  "openai-compatible": "OPENAI_API_KEY",
};

/** The keys of the section that decide where the user's key goes. */
const WIDENING_KEYS = ["base_url", "api_key_env"] as const;

/**
 * Read both layers. The project layer overrides the user layer key by key, except when it
 * names a different provider: then the user's settings (another provider's model or
 * endpoint) would not fit, and the project entry stands alone. An invalid layer is skipped,
 * with diagnostics that point at the value. The workspace's `base_url` and `api_key_env`
 * decide where the user's API key is sent: they count only once the user approved them
 * (`setting:provider`); until then they are left out, with a notice.
 */
export function readProviderSection(
  config: LoadedConfig,
  consent?: WorkspaceConsent,
): ProviderSectionRead {
  let section: ProviderSection = {};
  const diagnostics: Diagnostic[] = [];
  const notices: Diagnostic[] = [];
  for (const entry of config.section(PROVIDER_SECTION)) {
    const checked = validateSection(providerSectionSchema(), entry, {
      sectionKey: PROVIDER_SECTION,
      source: "cli",
    });
    if (!checked.ok) {
      diagnostics.push(...checked.diagnostics);
      continue;
    }
    let layer = checked.value;
    const subject = entry.layer === "user" ? undefined : providerSubject(layer, section);
    if (subject && !consent?.isApproved(subject)) {
      layer = { ...layer };
      for (const key of WIDENING_KEYS) delete layer[key];
      notices.push(
        needsConsentDiagnostic(subject, entry, {
          source: "cli",
          what: `The workspace's provider settings (${subject.summary}) would ${subject.effects?.join(" and ")}; they are left out`,
        }),
      );
    }
    const switches =
      layer.name !== undefined && section.name !== undefined && layer.name !== section.name;
    section = switches ? { ...layer } : { ...section, ...layer };
  }
  return { section, diagnostics, notices };
}

/** What a workspace's provider settings ask for, or undefined when they ask for nothing. */
export function providerConsentRequest(config: LoadedConfig): ConsentSubject | undefined {
  let section: ProviderSection = {};
  let subject: ConsentSubject | undefined;
  for (const entry of config.section(PROVIDER_SECTION)) {
    const checked = providerSectionSchema().safeParse(entry.value, CONFIG_PARSE);
    if (!checked.success) continue;
    if (entry.layer === "user") section = { ...section, ...checked.data };
    else subject = providerSubject(checked.data, section);
  }
  return subject;
}

/** The workspace's endpoint and key variable as one subject; undefined when it sets neither. */
function providerSubject(
  layer: ProviderSection,
  user: ProviderSection,
): ConsentSubject | undefined {
  if (layer.base_url === undefined && layer.api_key_env === undefined) return undefined;
  const provider = layer.name ?? user.name ?? "the configured provider";
  const key =
    layer.api_key_env ?? user.api_key_env ?? DEFAULT_KEY_VARIABLES[provider] ?? "its key variable";
  const host = layer.base_url ? hostOf(layer.base_url) : `${provider}'s endpoint`;
  const parts = [
    ...(layer.base_url ? [`base_url ${layer.base_url}`] : []),
    ...(layer.api_key_env ? [`api_key_env ${layer.api_key_env}`] : []),
  ];
  return consentSubject({
    kind: "setting",
    name: PROVIDER_SUBJECT,
    covers: {
      name: layer.name ?? null,
      base_url: layer.base_url ?? null,
      api_key_env: layer.api_key_env ?? null,
    },
    summary: parts.join("; "),
    effects: [`send your API key (${key}) to ${host}`],
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
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
 * Claims and checks the `provider` section for every command, so a mistake there shows at
 * start-up instead of as an "unknown section", and a workspace's endpoint waiting for approval
 * says so; its trust declaration is what `pseudoclaude trust` lists for the provider.
 */
export function providerSectionPlugin(): Plugin {
  return definePlugin({
    name: PROVIDER_SECTION_PLUGIN,
    sections: [PROVIDER_SECTION_SPEC],
    trust: {
      widening: PROVIDER_WIDENING,
      requests: ({ config }) => {
        const subject = providerConsentRequest(config);
        return subject ? [subject] : [];
      },
    },
    register(context) {
      const read = readProviderSection(context.config, context.consent);
      for (const diagnostic of [...read.diagnostics, ...read.notices]) context.report(diagnostic);
    },
  });
}
