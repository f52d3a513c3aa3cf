import os from "node:os";
import path from "node:path";
import type { Diagnostic, LoadedConfig } from "@pseudoclaude/core";
import { validateSectionFields } from "@pseudoclaude/core/plugin";
import { SKILLS_SOURCE } from "../format/parse-skill-file.js";
import { SKILLS_SECTION, skillsFieldSchemas, USER_ONLY_KEYS } from "./skills-section.js";
import {
  type AllowedToolsMode,
  DEFAULT_INDEX_BUDGET_CHARS,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_READ_MAX_BYTES,
  DEFAULT_SCRIPT_OUTPUT_CHARS,
  type SkillsOptions,
  type SkillsSettings,
} from "./skills-settings.js";

export interface LoadedSkillsSettings {
  settings: SkillsSettings;
  diagnostics: Diagnostic[];
}

/**
 * Combine the `skills` section of the user and project layers with code options. Lists add
 * up (`paths`, `disabled`, `trusted`); `enabled` and the numbers come from the most specific
 * place that sets them (code, then project, then user). Two keys are the user's alone
 * (`trust_project_allowed_tools`, `trusted`): a project config that sets them is reported and
 * ignored, since a cloned repository must not pre-approve its own commands. `restrict` set
 * anywhere wins over `approve`, so a project cannot lift a user's restriction.
 */
export function loadSkillsSettings(
  config: LoadedConfig,
  options: { workspace: string; code?: SkillsOptions },
): LoadedSkillsSettings {
  const diagnostics: Diagnostic[] = [];
  const code = options.code ?? {};
  const home = code.homeDir ?? os.homedir();
  const resolveDir = (dir: string) =>
    dir === "~" || dir.startsWith("~/")
      ? path.join(home, dir.slice(1))
      : path.resolve(options.workspace, dir);
  const settings: SkillsSettings = {
    paths: [],
    disabled: [],
    indexBudgetChars: DEFAULT_INDEX_BUDGET_CHARS,
    allowedToolsMode: "approve",
    trustProjectAllowedTools: false,
    trusted: [],
    watch: true,
    maxOutputChars: DEFAULT_SCRIPT_OUTPUT_CHARS,
    readMaxBytes: DEFAULT_READ_MAX_BYTES,
    killGraceMs: code.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
  };
  const modes: AllowedToolsMode[] = [];
  const disabled: string[] = [];
  const trusted: string[] = [];
  for (const entry of config.section(SKILLS_SECTION)) {
    const values = validateSectionFields(entry, skillsFieldSchemas, {
      source: SKILLS_SOURCE,
      sectionKey: SKILLS_SECTION,
      report: (diagnostic) => diagnostics.push(diagnostic),
      onField(key) {
        if (entry.layer === "user" || !USER_ONLY_KEYS.has(key)) return;
        diagnostics.push({
          stage: "config",
          severity: "warning",
          code: "skills_trust_in_project",
          source: SKILLS_SOURCE,
          layer: entry.layer,
          item: `${SKILLS_SECTION}.${key}`,
          ...entry.locate([key]),
          message: `${SKILLS_SECTION}.${key} in the project config is ignored: only your user config (~/.PseudoClaude/config.yaml) can trust project skills, so a cloned repository cannot pre-approve its own commands.`,
        });
      },
    });
    for (const dir of values.paths ?? [])
      settings.paths.push({ dir: resolveDir(dir), origin: entry.layer });
    if (values.enabled) settings.enabled = values.enabled;
    disabled.push(...(values.disabled ?? []));
    if (values.index_budget_chars !== undefined)
      settings.indexBudgetChars = values.index_budget_chars;
    if (values.allowed_tools_mode) modes.push(values.allowed_tools_mode);
    if (values.watch !== undefined) settings.watch = values.watch;
    if (values.max_output_chars !== undefined) settings.maxOutputChars = values.max_output_chars;
    if (values.read_max_bytes !== undefined) settings.readMaxBytes = values.read_max_bytes;
    if (entry.layer === "user") {
      if (values.trust_project_allowed_tools !== undefined)
        settings.trustProjectAllowedTools = values.trust_project_allowed_tools;
      trusted.push(...(values.trusted ?? []));
    }
  }
  for (const dir of code.paths ?? []) settings.paths.push({ dir: resolveDir(dir), origin: "code" });
  if (code.enabled) settings.enabled = code.enabled;
  disabled.push(...(code.disabled ?? []));
  trusted.push(...(code.trusted ?? []));
  if (code.allowedToolsMode) modes.push(code.allowedToolsMode);
  if (code.indexBudgetChars !== undefined) settings.indexBudgetChars = code.indexBudgetChars;
  if (code.trustProjectAllowedTools !== undefined)
    settings.trustProjectAllowedTools = code.trustProjectAllowedTools;
  if (code.watch !== undefined) settings.watch = code.watch;
  if (code.maxOutputChars !== undefined) settings.maxOutputChars = code.maxOutputChars;
  if (code.readMaxBytes !== undefined) settings.readMaxBytes = code.readMaxBytes;
  settings.allowedToolsMode = modes.includes("restrict") ? "restrict" : "approve";
  settings.disabled = [...new Set(disabled)];
  settings.trusted = [...new Set(trusted)];
  return { settings, diagnostics };
}
