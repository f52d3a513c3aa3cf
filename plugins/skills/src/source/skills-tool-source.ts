import { StaticToolSource, type ToolSourceStatus } from "@pseudoclaude/core/plugin";
import { SKILLS_SOURCE_ID } from "../tools/skill-tool-names.js";

/**
 * The `skills` tool source: `load_skill`, `read_skill_file`, `unload_skill`, and each loaded
 * skill's script tools. Its status counts skills by state beside the tools.
 */
export class SkillsToolSource extends StaticToolSource {
  private counts: () => Record<string, number> = () => ({});

  constructor(hooks: ConstructorParameters<typeof StaticToolSource>[2]) {
    super(SKILLS_SOURCE_ID, [], hooks);
  }

  /** Where the counters come from (the manager, built after its source). */
  countWith(counts: () => Record<string, number>): void {
    this.counts = counts;
  }

  override status(): ToolSourceStatus {
    const base = super.status();
    return { ...base, stats: { ...this.counts(), tools: base.stats.tools ?? 0 } };
  }
}
