import path from "node:path";
import { countSkills, type SkillInfo } from "@pseudoclaude/plugin-skills";
import { type TextSink, writeLine } from "./cli-io.js";
import { firstLine, table, truncate } from "./text-format.js";

/** The human form of `pseudoclaude skills`: one row per skill, where it lives, what is wrong. */
export function renderSkills(out: TextSink, skills: readonly SkillInfo[], workspace: string): void {
  if (skills.length === 0) {
    writeLine(
      out,
      "No skills. Put skill folders (each with a SKILL.md) in .PseudoClaude/skills, .agents/skills or .claude/skills of the workspace or your home directory.",
    );
    return;
  }
  const rows = skills.map((skill) => [
    skill.name,
    skill.layer,
    skill.state,
    allowedText(skill),
    truncate(firstLine(skill.description), 70),
  ]);
  const lines = table(["NAME", "LAYER", "STATE", "ALLOWED TOOLS", "DESCRIPTION"], rows);
  writeLine(out, lines[0] ?? "");
  skills.forEach((skill, index) => {
    writeLine(out, lines[index + 1] ?? "");
    if (skill.path) writeLine(out, `    ${shown(skill.path, workspace)}`);
    for (const diagnostic of skill.diagnostics)
      writeLine(out, `    ${diagnostic.severity}: ${firstLine(diagnostic.message)}`);
  });
  const totals = countSkills(skills);
  writeLine(out);
  writeLine(
    out,
    `Skills: ${totals.skills} (${totals.available} available, ${totals.loaded} loaded, ${totals.disabled} disabled, ${totals.invalid} invalid)`,
  );
}

function allowedText(skill: SkillInfo): string {
  if (skill.permissions.length === 0) return "-";
  const list = skill.permissions.join(" ");
  return skill.allowedToolsHonoured ? list : `(not trusted) ${list}`;
}

function shown(file: string, workspace: string): string {
  const relative = path.relative(workspace, file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}
