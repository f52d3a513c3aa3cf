import type { Disposable } from "../util/disposable.js";

/** A part of the system prompt a plugin contributes (a skills index, an MCP server's instructions). */
export interface SystemPromptSection {
  /** Unique id; adding the same id again replaces the section. */
  id: string;
  /** The plugin or source it comes from, shown to the model as attribution. */
  source: string;
  title: string;
  content: string;
  /** Cap for this section in characters (default: the builder's per-section cap). */
  maxChars?: number;
  /** Lower comes first; ties keep insertion order. Default 100. */
  order?: number;
  /**
   * Told when a build cuts this section to fit the budget (`truncated`: only `shownChars` of its
   * `chars` sent) or leaves it out (`omitted`), and again only when that changes: a section
   * whose loss matters (a project's instructions) reports it rather than vanish unseen.
   */
  onCut?: (
    cut:
      | { kind: "truncated"; chars: number; shownChars: number }
      | { kind: "omitted"; chars: number },
  ) => void;
}

export interface BuiltSystemPrompt {
  text: string;
  sections: Array<{
    id: string;
    source: string;
    chars: number;
    truncated: boolean;
    omitted: boolean;
  }>;
}

/** Assembles the system prompt from the user's prompt and plugin sections, within a budget. */
export interface SystemPromptBuilder {
  readonly version: number;
  add(section: SystemPromptSection): Disposable;
  sections(): readonly SystemPromptSection[];
  build(base: string): BuiltSystemPrompt;
}
