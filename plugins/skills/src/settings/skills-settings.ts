import { optionKeys } from "@pseudoclaude/core/plugin";

/** A skill defined in code rather than in a folder. */
export interface CodeSkill {
  name: string;
  description: string;
  /** The procedure the model reads when it loads the skill. */
  body: string;
  /** A folder of bundled files `read_skill_file` may read (and `SKILL_DIR` for scripts). */
  dir?: string | undefined;
  /** Executable files that become the skill's tools while it is loaded (absolute, or relative to the workspace). */
  scripts?: string[] | undefined;
  /** `allowed-tools` entries, as in SKILL.md (`Bash(git log:*)`, `read_file`). */
  allowedTools?: string[] | undefined;
  /** Leave it out of the model's index: only code or a person loads it. */
  disableModelInvocation?: boolean | undefined;
}

/** `pre-approve`: a loaded skill's allowed tools run without asking; `restrict`: only they run. */
export type AllowedToolsMode = "approve" | "restrict";

/** Options of `skills()` for agents composed in code; they win over config. */
export interface SkillsOptions {
  /** Extra folders that hold skill folders. */
  paths?: string[] | undefined;
  skills?: CodeSkill[] | undefined;
  /** When set, only these skills are offered. */
  enabled?: string[] | undefined;
  disabled?: string[] | undefined;
  indexBudgetChars?: number | undefined;
  allowedToolsMode?: AllowedToolsMode | undefined;
  /** Honour `allowed-tools` of project skills (as `skills.trust_project_allowed_tools` in the user config). */
  trustProjectAllowedTools?: boolean | undefined;
  /** Project skills whose `allowed-tools` are honoured. */
  trusted?: string[] | undefined;
  /** Follow changes to skill folders while the agent lives. Default true. */
  watch?: boolean | undefined;
  /** Home directory for the user skill folders; default `os.homedir()`. */
  homeDir?: string | undefined;
  /** Output cap of one script run, in characters. */
  maxOutputChars?: number | undefined;
  /** Most bytes `read_skill_file` returns of one file. */
  readMaxBytes?: number | undefined;
  /** How long a script's process group gets between SIGTERM and SIGKILL. */
  killGraceMs?: number | undefined;
}

/** Where a folder of skills was named: a config layer or code. */
export type PathOrigin = "user" | "project" | "code";

/** Everything the plugin runs on, combined from code and every config layer. */
/** Every key of {@link SkillsOptions}: another one passed in code is a mistake. */
export const SKILLS_OPTION_KEYS = optionKeys<SkillsOptions>()([
  "paths",
  "skills",
  "enabled",
  "disabled",
  "indexBudgetChars",
  "allowedToolsMode",
  "trustProjectAllowedTools",
  "trusted",
  "watch",
  "homeDir",
  "maxOutputChars",
  "readMaxBytes",
  "killGraceMs",
]);

export interface SkillsSettings {
  paths: Array<{ dir: string; origin: PathOrigin }>;
  enabled?: readonly string[];
  disabled: readonly string[];
  indexBudgetChars: number;
  allowedToolsMode: AllowedToolsMode;
  trustProjectAllowedTools: boolean;
  trusted: readonly string[];
  watch: boolean;
  maxOutputChars: number;
  readMaxBytes: number;
  killGraceMs: number;
}

/** Enough for about fifty skills with one-line descriptions. */
export const DEFAULT_INDEX_BUDGET_CHARS = 8_000;
export const DEFAULT_SCRIPT_OUTPUT_CHARS = 30_000;
export const DEFAULT_READ_MAX_BYTES = 256 * 1024;
export const DEFAULT_KILL_GRACE_MS = 400;
