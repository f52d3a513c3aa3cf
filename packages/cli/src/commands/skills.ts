import { countSkills, type SkillInfo, SkillsManager } from "@pseudoclaude/plugin-skills";
import { withCliAgent } from "../cli-agent.js";
import { writeJson } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { diagnosticsToJson } from "../json-output.js";
import { renderSkills } from "../render-skills.js";
import { skillToJson } from "../skills-output.js";

/** `pseudoclaude skills`: every skill found, with its layer, state and allowed tools. */
export const skillsCommand: CommandSpec = {
  name: "skills",
  summary: "List every skill with its layer, path, state and allowed tools.",
  usage: `Usage: pseudoclaude skills [--json] [--workspace DIR] [--plugin PATH]...

Find the skills of the workspace (.PseudoClaude/skills, .agents/skills, .claude/skills), of
your home directory (the same three folders), of skills.paths in config and of plugins, and
print each with its layer (project, user, code), where its SKILL.md is, its state (available,
loaded, disabled, invalid), its allowed tools and what is wrong with it.

  --json   {"skills": [...], "totals": {...}, "diagnostics": [...]} on stdout`,
  flags: ["trust-project"],
  positionals: { min: 0, max: 0, names: "" },
  run: runSkills,
};

async function runSkills({ flags, io }: CommandContext): Promise<number> {
  return withCliAgent({ flags, io, diagnoseConfig: true }, async ({ agent }) => {
    const skills: readonly SkillInfo[] = agent.resolve<SkillsManager>(SkillsManager).list();
    if (flags.json) {
      writeJson(io.stdout, {
        skills: skills.map(skillToJson),
        totals: countSkills(skills),
        diagnostics: diagnosticsToJson(agent.diagnostics()),
      });
    } else {
      renderSkills(io.stdout, skills, agent.workspace);
    }
    return EXIT.ok;
  });
}
