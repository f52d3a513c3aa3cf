/**
 * Codes of requests the plugin refuses (`UsageError`): loading a skill nobody has, one that
 * could not be read, one that is disabled, one whose content did not match its listing (a
 * catalog skill: size, digest or front matter), or anything after the agent closed.
 */
export type SkillsUsageErrorCode =
  | "unknown_skill"
  | "skill_invalid"
  | "skill_disabled"
  | "skill_not_model_invocable"
  | "skill_verification_failed"
  | "skills_closed";

// The plugin's codes join the kernel's, so `UsageError.is(error)` types `code` with them too in
// any program that imports this plugin.
declare module "@pseudoclaude/core" {
  interface UsageErrorCodes extends Record<SkillsUsageErrorCode, true> {}
}
