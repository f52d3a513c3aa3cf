import path from "node:path";
import type { Diagnostic } from "@pseudoclaude/core";
import type { Disposable, SystemPromptSection } from "@pseudoclaude/core/plugin";
import type { SkillRecord } from "../discovery/skill-record.js";
import { SKILLS_SOURCE } from "../format/parse-skill-file.js";
import { type IndexEntry, renderSkillsIndex } from "../prompt/skills-index.js";
import type { SkillsSettings } from "../settings/skills-settings.js";

const INDEX_SECTION_ID = "skills:index";

/** What the index section needs of the plugin: the system prompt, and where problems go. */
export interface IndexSectionHost {
  settings: Pick<SkillsSettings, "indexBudgetChars">;
  addSystemPromptSection(section: Omit<SystemPromptSection, "source">): Disposable;
  /** Reports a diagnostic once per agent (each rescan renders the index again). */
  reportOnce(diagnostic: Diagnostic): void;
}

/**
 * The "Skills" section of the system prompt: every skill the model may load, within the
 * budget. A rescan that renders the same text leaves the section as it is.
 */
export class SkillsIndexSection {
  private index: { content: string; section: Disposable } | undefined;

  constructor(private readonly host: IndexSectionHost) {}

  /** The index exactly as the model reads it, or undefined when no skill is in it. */
  get content(): string | undefined {
    return this.index?.content;
  }

  update(entries: readonly IndexEntry[]): void {
    if (entries.length === 0) {
      this.dispose();
      return;
    }
    const budget = this.host.settings.indexBudgetChars;
    const rendered = renderSkillsIndex(entries, budget);
    if (rendered.omitted > 0)
      this.host.reportOnce({
        stage: "prompt",
        severity: "warning",
        code: "skills_index_truncated",
        source: SKILLS_SOURCE,
        message: `The skills index lists ${rendered.shown} of ${entries.length} skills (skills.index_budget_chars is ${budget}); ${rendered.omitted} are counted in the index but not described. Raise the budget or disable skills you do not use.`,
      });
    if (this.index?.content === rendered.content) return;
    const section = this.host.addSystemPromptSection({
      id: INDEX_SECTION_ID,
      title: "Skills",
      content: rendered.content,
      // Already within its budget (the preamble and the count line on top): not cut again.
      maxChars: rendered.content.length,
      order: 50,
    });
    this.index = { content: rendered.content, section };
  }

  dispose(): void {
    this.index?.section.dispose();
    this.index = undefined;
  }
}

/**
 * Where a skill comes from, as a person reads it in the index: `project .claude/skills/pdf`,
 * `user ~/.claude/skills/pdf`, `code`, or a served skill's origin and location.
 */
export function skillOrigin(record: SkillRecord, workspace: string, home: string): string {
  if (record.remote) return `${record.remote.layer.origin} ${record.remote.entry.location}`;
  if (record.layer === "code" || !record.dir) return record.layer;
  const base = record.layer === "project" ? workspace : home;
  const relative = path.relative(base, record.dir);
  const shown = relative.startsWith("..") || path.isAbsolute(relative) ? record.dir : relative;
  return `${record.layer} ${record.layer === "user" && shown === relative ? `~/${shown}` : shown}`;
}
