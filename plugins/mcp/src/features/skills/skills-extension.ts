/** The Skills extension's identifier (SEP-2640), under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The extension's listing method; `skills/get` is not needed to load a listed skill. */
export const SKILLS_LIST = "skills/list";

/** SEP-2640's per-skill limits: every host must accept skills up to them, we accept no more. */
export const MAX_SKILL_RESOURCES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** Whether a session's server declared the Skills extension (its capabilities, either era). */
export function declaresSkills(capabilities: object | undefined): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  return typeof extensions === "object" && extensions !== null && SKILLS_EXTENSION in extensions;
}
