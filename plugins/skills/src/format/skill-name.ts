/** The longest skill name the Agent Skills format allows. */
export const MAX_SKILL_NAME_LENGTH = 64;

/** Lowercase letters, digits and single hyphens inside: `pdf-tools`, `release-notes-2`. */
const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * What is wrong with a skill's name under the Agent Skills rules, or undefined when nothing
 * is. The rules are checked leniently (a warning, the skill still loads), because skills
 * written for other agents often bend them.
 */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0) return "is empty";
  if (name.length > MAX_SKILL_NAME_LENGTH)
    return `has ${name.length} characters (at most ${MAX_SKILL_NAME_LENGTH})`;
  if (SKILL_NAME.test(name)) return undefined;
  if (/[^a-z0-9-]/.test(name)) return "may only hold lowercase letters, digits and '-'";
  if (name.startsWith("-") || name.endsWith("-")) return "must not start or end with '-'";
  return "must not hold '--'";
}
