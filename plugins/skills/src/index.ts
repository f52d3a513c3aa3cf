/** @pseudoclaude/plugin-skills - Agent Skills: a short index first, the procedure on demand, skill tools that come and go. */

// Claude Code's formats are read by @pseudoclaude/compat-claude-code; re-exported here so
// existing imports from the Skills plugin keep working.
export {
  type AllowedToolMapping,
  type FrontMatterSplit,
  mapAllowedTool,
  splitAllowedTools,
  splitFrontMatter,
} from "@pseudoclaude/compat-claude-code";
export { type CatalogLayerId, SKILL_FOLDERS, type SkillLayer } from "./discovery/skill-roots.js";
export { parseSkillFile, type SkillParse } from "./format/parse-skill-file.js";
export type { SkillDocument } from "./format/skill-document.js";
export { MAX_SKILL_NAME_LENGTH, skillNameProblem } from "./format/skill-name.js";
export { countSkills } from "./manager/count-skills.js";
export {
  type BundledFile,
  type LoadedSkill,
  type SkillInfo,
  type SkillLoader,
  type SkillState,
  SkillsManager,
  type SkillsManagerEvents,
} from "./manager/skills-manager.js";
export { SKILLS_SECTION, SKILLS_SECTION_SPEC } from "./settings/skills-section.js";
export type { AllowedToolsMode, CodeSkill, SkillsOptions } from "./settings/skills-settings.js";
export type { SkillsUsageErrorCode } from "./skills-errors.js";
export { SKILLS_PLUGIN_NAME, skills } from "./skills-plugin.js";
export {
  LOAD_SKILL,
  READ_SKILL_FILE,
  SKILLS_SOURCE_ID,
  UNLOAD_SKILL,
} from "./tools/skill-tool-names.js";
