import type { SectionEntry } from "../config/config-layer.js";
import type { ConfigSectionSpec } from "../config/config-section.js";
import type { LoadedConfig } from "../config/load-config.js";
import { type SectionFields, validateSectionFields } from "../config/validate-section.js";
import { zodSchema } from "../config/zod-schema.js";
import type { ConsentSubject, WorkspaceConsent } from "../consent/consent-store.js";
import { consentSubject } from "../consent/consent-subject.js";
import { needsConsentDiagnostic } from "../consent/needs-consent.js";
import type { WideningSetting } from "../consent/widening.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import {
  MANAGED_RULE_ORIGIN,
  PERMISSION_MODES,
  type PermissionMode,
} from "../contracts/policy-engine.js";
import { compilePolicyRules } from "./default-policy-engine.js";
import { MODE_REACH, modeLimits } from "./mode-limits.js";
import {
  type PolicyOptions,
  type PolicySettings,
  type RuleSpec,
  rulesOf,
} from "./policy-settings.js";

/** Config section `permissions`, one layer. */
export const permissionsSectionSchema = zodSchema((z) =>
  z
    .object({
      mode: z.enum(PERMISSION_MODES).optional(),
      tools: z.array(z.string().min(1)).optional(),
      allow: z.array(z.string().min(1)).optional(),
      ask: z.array(z.string().min(1)).optional(),
      deny: z.array(z.string().min(1)).optional(),
      disable_bypass: z.boolean().optional(),
    })
    .strict(),
);

/** The section's keys one by one, so a bad key is placed at its line with a suggestion. */
const permissionsFields = zodSchema((z) => ({
  mode: z.enum(PERMISSION_MODES),
  tools: z.array(z.string().min(1)),
  allow: z.array(z.string().min(1)),
  ask: z.array(z.string().min(1)),
  deny: z.array(z.string().min(1)),
  /** Refuse `bypass` mode for this agent, whoever asks for it (it only narrows). */
  disable_bypass: z.boolean(),
}));

type PermissionsLayer = SectionFields<ReturnType<typeof permissionsFields>>;

export const PERMISSIONS_SECTION = "permissions";

/** The `permissions` section: rules add up, so a deny in any layer stands; it fails closed. */
export const PERMISSIONS_SECTION_SPEC: ConfigSectionSpec = {
  key: PERMISSIONS_SECTION,
  owner: "kernel",
  additive: ["allow", "ask", "deny"],
  restricts: true,
};

/** The consent subject of a workspace's widening permissions. */
export const PERMISSIONS_SUBJECT = "permissions";

/** The permissions a workspace may set only with the user's consent. */
export const PERMISSIONS_WIDENING: readonly WideningSetting[] = [
  {
    setting: "permissions.allow",
    kind: "setting",
    effect: "pre-approves tool calls (a shell command, a server's tools) with no question",
  },
  {
    setting: "permissions.mode",
    kind: "setting",
    effect:
      "a mode more permissive than yours (accept_edits, bypass) lets calls run with no question",
  },
  {
    setting: "permissions.tools",
    kind: "setting",
    effect: "an agent allow-list that names tools yours leaves out would offer them",
  },
];

/**
 * Combine code options and every config layer into settings. Rules add up across layers (so a
 * deny in any layer stands). The workspace's layer may always narrow (deny and ask rules, a
 * stricter mode, an allow-list a tool must match too); what it would widen (allow rules, a
 * looser mode than the user's, an allow-list in place of the user's) counts only once the user
 * consented to it (`setting:permissions`). Code is the developer's and counts whole; its mode
 * and allow-list win. A section that does not parse fails closed: every problem is a blocking
 * diagnostic, and the deny rules that did parse still stand.
 */
export function buildPolicySettings(
  config: LoadedConfig,
  code: PolicyOptions | undefined,
  workspace: string,
  report: (diagnostic: Diagnostic) => void,
  consent?: WorkspaceConsent,
): PolicySettings {
  let mode: PermissionMode = "default";
  let tools: string[] | undefined;
  const narrowTools: string[][] = [];
  const rules: RuleSpec[] = [];
  const read = config
    .section(PERMISSIONS_SECTION)
    .map((entry) => ({ entry, values: readLayer(entry, report) }));
  // Every widening file of the workspace is one question (Claude Code's two settings files
  // and ours), asked against the user's own mode and allow-list.
  const subject = workspaceWidening(read);
  const approved = !subject || consent?.isApproved(subject) === true;
  const limits = modeLimits(read);
  for (const { entry, values } of read) {
    if (entry.layer === "user" || approved) {
      rules.push(...layerRules(values, entry, report));
      if (values.mode) mode = values.mode;
      if (values.tools) tools = values.tools;
      continue;
    }
    // Not consented to: the narrowing part only (every rule but `allow`).
    const { allow: _widens, ...narrowing } = values;
    rules.push(...layerRules(narrowing, entry, report));
    if (values.mode && MODE_REACH[values.mode] <= MODE_REACH[mode]) mode = values.mode;
    if (values.tools) {
      if (tools) narrowTools.push(values.tools);
      else tools = values.tools;
    }
    if (subject && widens(values, mode, tools))
      report(
        needsConsentDiagnostic(subject, entry, {
          source: "policy",
          what: `The workspace's permissions would widen what the agent may do (${subject.summary}); only their deny and ask rules, a stricter mode and a narrower tool list apply`,
        }),
      );
  }
  if (code) {
    const codeRules = rulesOf(code, "code");
    const { errors } = compilePolicyRules(codeRules);
    if (errors.length > 0) {
      // Code is written by a developer: a bad rule there is a bug to fix now, not to skip.
      throw new TypeError(errors.map((error) => error.message).join(" "));
    }
    rules.push(...codeRules);
    if (code.mode) {
      // Asked for by the person at the keyboard (`--mode`) or the developer: a mode above
      // what an administrator or a settings file allows is refused, not quietly lowered.
      const refused = limits.refuse(code.mode);
      if (refused) throw refused;
      mode = code.mode;
    }
    if (code.tools) tools = code.tools;
  }
  mode = limits.clamp(mode, report);
  const settings: PolicySettings = { mode, rules, workspace };
  if (limits.maxMode !== undefined) settings.maxMode = limits.maxMode;
  if (tools) settings.tools = tools;
  if (narrowTools.length > 0) settings.narrowTools = narrowTools;
  return settings;
}

/**
 * What a workspace's permissions ask for beyond the user's own, or undefined when they only
 * narrow: `pseudoclaude trust` lists it. The user's mode and allow-list are those of the user
 * layer (code is not known here, and can only tighten what the question covers).
 */
export function permissionsConsentRequest(config: LoadedConfig): ConsentSubject | undefined {
  const quiet = () => undefined;
  return workspaceWidening(
    config
      .section(PERMISSIONS_SECTION)
      .map((entry) => ({ entry, values: readLayer(entry, quiet) })),
  );
}

type ReadLayer = { entry: SectionEntry; values: PermissionsLayer };

/**
 * What the workspace's layers together would widen beyond the user's own mode and allow-list
 * (the user's layers, managed ones aside): their allow rules, their loosest mode, their last
 * allow-list. One workspace file gives the subject it always gave.
 */
function workspaceWidening(read: readonly ReadLayer[]): ConsentSubject | undefined {
  let userMode: PermissionMode = "default";
  let userTools: string[] | undefined;
  const merged: PermissionsLayer = {};
  for (const { entry, values } of read) {
    if (entry.layer === "user") {
      if (entry.managed) continue;
      if (values.mode) userMode = values.mode;
      if (values.tools) userTools = values.tools;
      continue;
    }
    if (values.allow) merged.allow = [...(merged.allow ?? []), ...values.allow];
    if (values.mode && (!merged.mode || MODE_REACH[values.mode] > MODE_REACH[merged.mode]))
      merged.mode = values.mode;
    if (values.tools) merged.tools = values.tools;
  }
  return wideningSubject(merged, userMode, userTools);
}

/** Whether one layer asks for more than `mode` and `tools` give (for its own diagnostic). */
function widens(values: PermissionsLayer, mode: PermissionMode, tools: string[] | undefined) {
  return wideningSubject(values, mode, tools) !== undefined;
}

function readLayer(
  entry: SectionEntry,
  report: (diagnostic: Diagnostic) => void,
): PermissionsLayer {
  return validateSectionFields(entry, permissionsFields(), {
    source: "policy",
    sectionKey: PERMISSIONS_SECTION,
    report,
    failClosed: PERMISSIONS_SECTION_SPEC.restricts ?? false,
  }) as PermissionsLayer;
}

/** The workspace's widening permissions as one subject; undefined when nothing widens. */
function wideningSubject(
  values: PermissionsLayer,
  userMode: PermissionMode,
  userTools: readonly string[] | undefined,
): ConsentSubject | undefined {
  const allow = values.allow ?? [];
  const looserMode =
    values.mode !== undefined && MODE_REACH[values.mode] > MODE_REACH[userMode]
      ? values.mode
      : undefined;
  const otherTools = userTools && values.tools ? values.tools : undefined;
  if (allow.length === 0 && !looserMode && !otherTools) return undefined;
  const parts: string[] = [];
  const effects: string[] = [];
  if (allow.length > 0) {
    parts.push(`allow ${allow.join(", ")}`);
    effects.push(`runs ${allow.join(", ")} with no question`);
  }
  if (looserMode) {
    parts.push(`mode ${looserMode}`);
    effects.push(`switches the mode from ${userMode} to ${looserMode}`);
  }
  if (otherTools) {
    parts.push(`tools ${otherTools.join(", ")}`);
    effects.push(`replaces your tool allow-list with ${otherTools.join(", ")}`);
  }
  return consentSubject({
    kind: "setting",
    name: PERMISSIONS_SUBJECT,
    covers: { allow, mode: looserMode ?? null, tools: otherTools ?? null },
    summary: parts.join("; "),
    effects,
  });
}

/** A layer's rules that compile; each that does not is reported at its position and skipped. */
function layerRules(
  values: Pick<PermissionsLayer, "allow" | "ask" | "deny">,
  entry: SectionEntry,
  report: (diagnostic: Diagnostic) => void,
): RuleSpec[] {
  // An administrator's rules say so in every decision they make.
  const specs = rulesOf(values, entry.managed ? MANAGED_RULE_ORIGIN : entry.layer);
  const { errors } = compilePolicyRules(specs);
  const broken = new Set(errors.map((error) => error.spec));
  for (const error of errors) {
    const list = values[error.spec.verdict as "allow" | "ask" | "deny"] ?? [];
    const position = entry.locate([error.spec.verdict, list.indexOf(error.spec.pattern)]);
    report({
      stage: "config",
      severity: "error",
      code: "invalid_rule",
      layer: entry.layer,
      item: error.spec.pattern,
      file: position.file,
      ...(position.line !== undefined ? { line: position.line, column: position.column } : {}),
      // A deny or ask rule that cannot be read would let through what it was meant to stop.
      ...(error.spec.verdict === "allow"
        ? { message: `${error.message} The rule is ignored.` }
        : {
            message: `${error.message} A ${error.spec.verdict} rule that cannot be read would let through what it was meant to stop, so nothing runs until it is fixed.`,
            blocking: true,
          }),
    });
  }
  return specs.filter((rule) => !broken.has(rule));
}
