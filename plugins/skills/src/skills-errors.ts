/**
 * Codes of requests the plugin refuses (`UsageError`): loading a skill nobody has, one that
 * could not be read, one that is disabled, or anything after the agent closed.
 */
export type SkillsUsageErrorCode =
  | "unknown_skill"
  | "skill_invalid"
  | "skill_disabled"
  | "skill_not_model_invocable"
  | "skills_closed";
