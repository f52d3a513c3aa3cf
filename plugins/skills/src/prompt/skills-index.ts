import { MAX_DESCRIPTION_LENGTH } from "../format/parse-skill-file.js";
import { LOAD_SKILL, READ_SKILL_FILE } from "../tools/skill-tool-names.js";

/** One line of the index: a skill the model may load. */
export interface IndexEntry {
  name: string;
  description: string;
  /** Where it came from, as a person reads it: `project .claude/skills/pdf`, `code`. */
  origin: string;
}

export interface SkillsIndex {
  content: string;
  shown: number;
  /** Entries left out because the budget was spent: counted, never silently dropped. */
  omitted: number;
}

const PREAMBLE = `Skills are procedures for particular kinds of tasks. Each entry names a skill, says when to use it and where it comes from. When a task matches a skill, call ${LOAD_SKILL} with its name before you start, then follow the procedure it returns; read its bundled files with ${READ_SKILL_FILE} only when the procedure points to them. Do not load skills the task does not need.`;

/**
 * The index within `budget` characters: entries in lookup order while they fit, then a line
 * counting the rest. The preamble and that line are not part of the budget, so a small budget
 * still tells the model how to use skills.
 */
export function renderSkillsIndex(entries: readonly IndexEntry[], budget: number): SkillsIndex {
  const lines: string[] = [];
  let used = 0;
  for (const entry of entries) {
    const description = oneLine(entry.description).slice(0, MAX_DESCRIPTION_LENGTH);
    const line = `- ${entry.name}: ${description} [${entry.origin}]`;
    if (used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  const omitted = entries.length - lines.length;
  if (omitted > 0)
    lines.push(
      `[${omitted} more skill${omitted === 1 ? "" : "s"} not listed here (the index is over its ${budget}-character budget); ${LOAD_SKILL} accepts every name in its list.]`,
    );
  return {
    content: `${PREAMBLE}\n\n${lines.join("\n")}`,
    shown: entries.length - omitted,
    omitted,
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
