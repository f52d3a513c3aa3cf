import { type Disposable, toDisposable } from "../util/disposable.js";
import type {
  BuiltSystemPrompt,
  SystemPromptBuilder,
  SystemPromptSection,
} from "./system-prompt.js";

export interface SystemPromptBudget {
  /** Characters all sections together may use. Default 24 000. */
  totalChars?: number | undefined;
  /** Characters one section may use unless it says otherwise. Default 8 000. */
  sectionChars?: number | undefined;
}

const DEFAULT_TOTAL = 24_000;
const DEFAULT_SECTION = 8_000;

export class DefaultSystemPromptBuilder implements SystemPromptBuilder {
  private readonly entries = new Map<string, { section: SystemPromptSection; seq: number }>();
  /** The last cut each section was told of (`onCut`), so a build per turn tells it once. */
  private readonly told = new WeakMap<SystemPromptSection, string>();
  private seq = 0;
  private currentVersion = 0;
  private readonly totalChars: number;
  private readonly sectionChars: number;

  constructor(budget: SystemPromptBudget = {}) {
    this.totalChars = budget.totalChars ?? DEFAULT_TOTAL;
    this.sectionChars = budget.sectionChars ?? DEFAULT_SECTION;
  }

  get version(): number {
    return this.currentVersion;
  }

  add(section: SystemPromptSection): Disposable {
    const entry = { section, seq: this.seq++ };
    this.entries.set(section.id, entry);
    this.currentVersion += 1;
    return toDisposable(() => {
      if (this.entries.get(section.id) === entry) {
        this.entries.delete(section.id);
        this.currentVersion += 1;
      }
    });
  }

  sections(): readonly SystemPromptSection[] {
    return [...this.entries.values()]
      .sort((a, b) => (a.section.order ?? 100) - (b.section.order ?? 100) || a.seq - b.seq)
      .map((entry) => entry.section);
  }

  build(base: string): BuiltSystemPrompt {
    const parts: string[] = base.trim() ? [base.trim()] : [];
    const report: BuiltSystemPrompt["sections"] = [];
    let remaining = this.totalChars;
    for (const section of this.sections()) {
      const cap = Math.min(section.maxChars ?? this.sectionChars, remaining);
      const content = section.content.trim();
      if (content === "") continue;
      if (cap <= 0) {
        this.tell(section, { kind: "omitted", chars: content.length });
        report.push({
          id: section.id,
          source: section.source,
          chars: 0,
          truncated: true,
          omitted: true,
        });
        continue;
      }
      const truncated = content.length > cap;
      const body = truncated
        ? `${content.slice(0, cap)}\n[... ${content.length - cap} more characters cut: section over its ${cap}-character budget]`
        : content;
      remaining -= Math.min(content.length, cap);
      this.tell(
        section,
        truncated ? { kind: "truncated", chars: content.length, shownChars: cap } : undefined,
      );
      // Attribution lets the model weigh each section by where it comes from.
      parts.push(`## ${section.title}\n(from ${section.source})\n\n${body}`);
      report.push({
        id: section.id,
        source: section.source,
        chars: body.length,
        truncated,
        omitted: false,
      });
    }
    return { text: parts.join("\n\n"), sections: report };
  }

  private tell(section: SystemPromptSection, cut: Parameters<CutListener>[0] | undefined): void {
    const key = cut ? JSON.stringify(cut) : "whole";
    if ((this.told.get(section) ?? "whole") === key) return;
    this.told.set(section, key);
    if (cut) section.onCut?.(cut);
  }
}

type CutListener = NonNullable<SystemPromptSection["onCut"]>;
