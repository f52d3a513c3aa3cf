import type { SkillInfo, SkillState } from "./skills-manager.js";

/** Skills by state: `{ skills, available, loaded, disabled, invalid }`, in that order. */
export function countSkills(skills: readonly SkillInfo[]): Record<"skills" | SkillState, number> {
  const count = (state: SkillState) => skills.filter((skill) => skill.state === state).length;
  return {
    skills: skills.length,
    available: count("available"),
    loaded: count("loaded"),
    disabled: count("disabled"),
    invalid: count("invalid"),
  };
}
