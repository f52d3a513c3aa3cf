import type { LoadedConfig } from "../config/load-config.js";
import { validateSection } from "../config/validate-section.js";
import { zodSchema } from "../config/zod-schema.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { compilePolicyRules } from "./default-policy-engine.js";
import { PERMISSION_MODES, type PermissionMode } from "./policy-engine.js";
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
    })
    .strict(),
);

export const PERMISSIONS_SECTION = "permissions";

/**
 * Combine code options and every config layer into settings. Rules add up across layers
 * (so a deny in any layer stands); mode and the allow-list are taken from the most specific
 * place that sets them: code, then project, then user. A rule that does not parse is
 * skipped with a diagnostic at its position.
 */
export function buildPolicySettings(
  config: LoadedConfig,
  code: PolicyOptions | undefined,
  workspace: string,
  report: (diagnostic: Diagnostic) => void,
): PolicySettings {
  let mode: PermissionMode = "default";
  let tools: string[] | undefined;
  const rules: RuleSpec[] = [];
  for (const entry of config.section(PERMISSIONS_SECTION)) {
    const checked = validateSection(permissionsSectionSchema(), entry, {
      sectionKey: PERMISSIONS_SECTION,
    });
    if (!checked.ok) {
      checked.diagnostics.forEach(report);
      continue;
    }
    const layerRules = rulesOf(checked.value, entry.layer);
    const { errors } = compilePolicyRules(layerRules);
    const broken = new Set(errors.map((error) => error.spec));
    for (const error of errors) {
      const list = checked.value[error.spec.verdict] ?? [];
      const position = entry.locate([error.spec.verdict, list.indexOf(error.spec.pattern)]);
      report({
        stage: "config",
        severity: "error",
        code: "invalid_rule",
        layer: entry.layer,
        item: error.spec.pattern,
        file: position.file,
        ...(position.line !== undefined ? { line: position.line, column: position.column } : {}),
        message: `${error.message} The rule is ignored.`,
      });
    }
    rules.push(...layerRules.filter((rule) => !broken.has(rule)));
    if (checked.value.mode) mode = checked.value.mode;
    if (checked.value.tools) tools = checked.value.tools;
  }
  if (code) {
    const codeRules = rulesOf(code, "code");
    const { errors } = compilePolicyRules(codeRules);
    if (errors.length > 0) {
      // Code is written by a developer: a bad rule there is a bug to fix now, not to skip.
      throw new TypeError(errors.map((error) => error.message).join(" "));
    }
    rules.push(...codeRules);
    if (code.mode) mode = code.mode;
    if (code.tools) tools = code.tools;
  }
  const settings: PolicySettings = { mode, rules, workspace };
  if (tools) settings.tools = tools;
  return settings;
}
