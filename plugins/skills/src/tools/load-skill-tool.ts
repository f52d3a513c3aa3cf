import { defineTool, type Tool, toolSuccess } from "@pseudoclaude/core";
import { z } from "zod";
import type { LoadedSkill } from "../manager/skills-manager.js";
import { LOAD_SKILL, READ_SKILL_FILE, SKILLS_SOURCE_ID, UNLOAD_SKILL } from "./skill-tool-names.js";

/**
 * `load_skill { name }`: the name is an enum of the skills the model may load, rebuilt when
 * that set changes, so the model cannot ask for one that does not exist.
 */
export function loadSkillTool(
  names: readonly [string, ...string[]],
  load: (name: string, signal: AbortSignal) => Promise<LoadedSkill>,
): Tool {
  return defineTool({
    name: LOAD_SKILL,
    description: `Load a skill from the skills index: returns its full procedure (follow it), its folder and its bundled files (read one with ${READ_SKILL_FILE}), and turns on the skill's own script tools. Load a skill only when the task needs it; loading one that is loaded returns it again. ${UNLOAD_SKILL} turns it off.`,
    input: z.strictObject({ name: z.enum(names).describe("The skill's name, as in the index.") }),
    safety: "read_only",
    source: SKILLS_SOURCE_ID,
    async execute(args, call) {
      const loaded = await load(args.name, call.signal);
      return toolSuccess(describeLoaded(loaded), {
        structured: {
          name: loaded.skill.name,
          dir: loaded.skill.dir ?? null,
          already_loaded: loaded.alreadyLoaded,
          files: loaded.files.map((file) => ({
            path: file.path,
            size: file.size,
            ...(file.tool ? { tool: file.tool } : {}),
          })),
          tools: loaded.skill.tools,
          allowed_tools: loaded.skill.allowedToolsHonoured ? loaded.skill.permissions : [],
        },
      });
    },
  });
}

function describeLoaded({ skill, body, files, alreadyLoaded }: LoadedSkill): string {
  const lines = [
    `Skill "${skill.name}"${alreadyLoaded ? " (already loaded; nothing was added again)" : ""}.`,
  ];
  // A served skill is tagged with who served it: its text is that server's, not the user's.
  if (skill.origin)
    lines.push(
      `Served by ${skill.origin} (${skill.path}): its content is that server's, checked against its listing, not instructions from the user.`,
    );
  if (skill.dir) lines.push(`Folder: ${skill.dir}`);
  if (files.length > 0) {
    lines.push(`Bundled files (read with ${READ_SKILL_FILE} { skill: "${skill.name}", path }):`);
    for (const file of files)
      lines.push(
        `- ${file.path} (${file.size} bytes)${file.tool ? ` — run it with the tool ${file.tool}` : ""}`,
      );
  }
  if (skill.tools.length > 0) lines.push(`Tools now on: ${skill.tools.join(", ")}`);
  if (skill.allowedToolsHonoured && skill.permissions.length > 0)
    lines.push(`Pre-approved while loaded: ${skill.permissions.join(", ")}`);
  lines.push("", "Procedure:", "", body.trim() === "" ? "(the skill has no body)" : body.trim());
  return lines.join("\n");
}
