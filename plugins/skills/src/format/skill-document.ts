/** What a SKILL.md says, as read from its front matter and body. */
export interface SkillDocument {
  /** The declared name (the folder's name when none is declared). */
  name: string;
  description: string;
  /** The Markdown body, front matter removed. */
  body: string;
  /** Every front-matter field as data, including those other agents add. */
  fields: Record<string, unknown>;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  /** `allowed-tools` entries as written (`Bash(git log:*)`, `read_file`). */
  allowedTools: string[];
  /** False for `disable-model-invocation: true`: only a person or code loads it. */
  modelInvocable: boolean;
}
