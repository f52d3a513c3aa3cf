import type { ConsentSubject, WorkspaceConsent } from "../consent/consent-store.js";
import { consentSubject } from "../consent/consent-subject.js";
import { needsConsentDiagnostic } from "../consent/needs-consent.js";
import type { WideningSetting } from "../consent/widening.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import { isPlainObject } from "../util/plain-object.js";
import type { ConfigSectionSpec } from "./config-section.js";
import type { LoadedConfig } from "./load-config.js";
import { validateSection } from "./validate-section.js";
import { zodSchema } from "./zod-schema.js";

/** Config key of the variables for the processes tools start (Claude Code's `env`). */
export const ENV_SECTION = "env";

/** Variables add up across layers, the later layer's value winning, as Claude Code merges env. */
export const ENV_SECTION_SPEC: ConfigSectionSpec = { key: ENV_SECTION, owner: "kernel" };

/** `NAME: value`; a number or boolean is written as Claude Code's JSON allows and sent as text. */
export const envSectionSchema = zodSchema((z) =>
  z.record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name"),
    z.union([z.string(), z.number(), z.boolean()]),
  ),
);

/** The consent subject of a workspace's variables. */
export const ENV_SUBJECT = "env";

/** What a workspace's `env` may do only with the user's consent. */
export const ENV_WIDENING: readonly WideningSetting[] = [
  {
    setting: "env (Claude Code's env)",
    kind: "setting",
    effect:
      "sets variables (PATH, LD_PRELOAD, NODE_OPTIONS) for every process a tool starts: shell commands, MCP servers, hooks",
  },
];

/** The variables, and what was wrong or left out on the way. */
export interface ToolEnvRead {
  env: Record<string, string>;
  diagnostics: Diagnostic[];
}

/**
 * The variables every process a tool starts gets (a shell command, a stdio MCP server, a hook
 * command), never this process's own: provider keys stay what the user set. The user's and
 * managed layers apply at once; the workspace's (its config, its `.claude/settings*.json`)
 * once the user approved them as one subject (`setting:env`), since `PATH` or `LD_PRELOAD`
 * decide what a command the user allowed really runs.
 */
export function readToolEnv(config: LoadedConfig, consent?: WorkspaceConsent): ToolEnvRead {
  const env: Record<string, string> = {};
  const diagnostics: Diagnostic[] = [];
  const subject = envConsentRequest(config);
  const approved = !subject || consent?.isApproved(subject) === true;
  let noticed = false;
  for (const entry of config.section(ENV_SECTION)) {
    const checked = validateSection(envSectionSchema(), entry, { sectionKey: ENV_SECTION });
    if (!checked.ok) {
      diagnostics.push(...checked.diagnostics);
      continue;
    }
    if (entry.layer === "project" && !approved) {
      if (!noticed && subject)
        diagnostics.push(
          needsConsentDiagnostic(subject, entry, {
            what: `The workspace's ${subject.summary} would ${subject.effects?.join(" and ")}; left out`,
          }),
        );
      noticed = true;
      continue;
    }
    for (const [name, value] of Object.entries(checked.value)) env[name] = String(value);
  }
  return { env, diagnostics };
}

/** The workspace's variables as one subject; undefined when its files set none. */
export function envConsentRequest(config: LoadedConfig): ConsentSubject | undefined {
  const variables: Record<string, unknown> = {};
  for (const entry of config.section(ENV_SECTION))
    if (entry.layer === "project" && isPlainObject(entry.value))
      Object.assign(variables, entry.value);
  const names = Object.keys(variables);
  if (names.length === 0) return undefined;
  return consentSubject({
    kind: "setting",
    name: ENV_SUBJECT,
    covers: variables,
    summary: `env ${names.join(", ")}`,
    effects: ["set these variables for every process a tool starts"],
  });
}
