import { defineTool, type Tool, toolFailure, toolSuccess } from "@pseudoclaude/core";
import { z } from "zod";
import { SKILLS_SOURCE_ID, UNLOAD_SKILL } from "./skill-tool-names.js";

/** `unload_skill { name }`: the skill's tools and its pre-approvals go off. */
export function unloadSkillTool(
  unload: (name: string) => { unloaded: boolean; loaded: readonly string[] },
): Tool {
  return defineTool({
    name: UNLOAD_SKILL,
    description:
      "Unload a loaded skill when its task is done: its script tools and the tools it pre-approved go off.",
    input: z.strictObject({ name: z.string().min(1).describe("The loaded skill's name.") }),
    safety: "read_only",
    source: SKILLS_SOURCE_ID,
    execute(args) {
      const outcome = unload(args.name);
      if (outcome.unloaded)
        return toolSuccess(`Skill "${args.name}" unloaded.`, {
          structured: { name: args.name, unloaded: true },
        });
      const loaded = outcome.loaded.length > 0 ? outcome.loaded.join(", ") : "none";
      return toolFailure("tool_error", `Skill "${args.name}" is not loaded (loaded: ${loaded}).`);
    },
  });
}
