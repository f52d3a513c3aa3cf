/** The tools every agent with skills has, whatever is loaded. */
export const LOAD_SKILL = "load_skill";
export const READ_SKILL_FILE = "read_skill_file";
export const UNLOAD_SKILL = "unload_skill";
export const SKILL_META_TOOLS = [LOAD_SKILL, READ_SKILL_FILE, UNLOAD_SKILL] as const;

/** Id of the tool source all skill tools belong to. */
export const SKILLS_SOURCE_ID = "skills";
