import type { ConfigSectionSpec } from "@pseudoclaude/core/plugin";
import { z } from "zod";

/** The config section this plugin owns. */
export const SKILLS_SECTION = "skills";

/**
 * One schema per key, so a bad key in a layer is reported at its line and skipped while the
 * layer's other keys still apply.
 */
export const skillsFieldSchemas = {
  paths: z.array(z.string().min(1, "must be a non-empty path")),
  enabled: z.array(z.string().min(1)),
  disabled: z.array(z.string().min(1)),
  index_budget_chars: z.number().int().min(200).max(200_000),
  allowed_tools_mode: z.enum(["approve", "restrict"]),
  trust_project_allowed_tools: z.boolean(),
  trusted: z.array(z.string().min(1)),
  watch: z.boolean(),
  max_output_chars: z.number().int().min(1_000).max(1_000_000),
  read_max_bytes: z.number().int().min(1_024).max(10_000_000),
} as const;

export type SkillsSectionKey = keyof typeof skillsFieldSchemas;

/**
 * Lists add up across layers; two keys are the user's alone, since a cloned repository must not
 * trust itself.
 */
export const SKILLS_SECTION_SPEC: ConfigSectionSpec = {
  key: SKILLS_SECTION,
  owner: "skills",
  additive: ["paths", "disabled", "trusted"],
  userOnly: ["trust_project_allowed_tools", "trusted"] satisfies SkillsSectionKey[],
};

/** Keys only the user's own config may set: a cloned repository must not trust itself. */
export const USER_ONLY_KEYS: ReadonlySet<string> = new Set(SKILLS_SECTION_SPEC.userOnly);
