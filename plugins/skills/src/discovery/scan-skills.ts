import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { splitAllowedTools } from "@pseudoclaude/compat-claude-code";
import type { Diagnostic } from "@pseudoclaude/core";
import { errorMessage } from "@pseudoclaude/core/plugin";
import { parseSkillFile, SKILLS_SOURCE } from "../format/parse-skill-file.js";
import { skillNameProblem } from "../format/skill-name.js";
import type { CodeSkill, SkillsSettings } from "../settings/skills-settings.js";
import type { SkillRecord } from "./skill-record.js";
import type { SkillRoot } from "./skill-roots.js";

export const SKILL_FILE = "SKILL.md";
/** A SKILL.md longer than this is not read: an index entry must stay cheap. */
const MAX_SKILL_FILE_BYTES = 1024 * 1024;

export interface SkillScan {
  /** Every skill found, winners and invalid ones, in lookup order. */
  skills: SkillRecord[];
  diagnostics: Diagnostic[];
}

/**
 * Find every skill: code skills first, then each root in order. The first skill with a name
 * wins it; a later one of another layer is shadowed (said with both files), one of the same
 * layer is a duplicate. One bad skill never stops the others.
 */
export async function scanSkills(
  roots: readonly SkillRoot[],
  codeSkills: readonly CodeSkill[],
  settings: Pick<SkillsSettings, "enabled" | "disabled">,
  workspace: string,
): Promise<SkillScan> {
  const found: SkillRecord[] = codeSkills.map((skill) => codeRecord(skill, workspace));
  for (const root of roots) found.push(...(await scanRoot(root)));
  const winners = new Map<string, SkillRecord>();
  const skills: SkillRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const record of found) {
    if (record.document) {
      const winner = winners.get(record.name);
      if (winner) {
        const diagnostic = conflict(record, winner);
        diagnostics.push(diagnostic);
        winner.diagnostics.push(diagnostic);
        continue;
      }
      winners.set(record.name, record);
    }
    const enabled =
      (settings.enabled === undefined || settings.enabled.includes(record.name)) &&
      !settings.disabled.includes(record.name);
    record.enabled = enabled;
    skills.push(record);
    diagnostics.push(...record.diagnostics);
  }
  return { skills, diagnostics };
}

async function scanRoot(root: SkillRoot): Promise<SkillRecord[]> {
  let entries: string[];
  try {
    entries = (await readdir(root.dir)).sort();
  } catch {
    return []; // A root that does not exist holds no skills.
  }
  const records: SkillRecord[] = [];
  for (const entry of entries) {
    if (entry.startsWith(".")) continue;
    const dir = path.join(root.dir, entry);
    const file = path.join(dir, SKILL_FILE);
    // Followed through symbolic links: people link skill folders from a shared checkout.
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    records.push(await readSkill(root, dir, file, entry, info.size));
  }
  return records;
}

async function readSkill(
  root: SkillRoot,
  dir: string,
  file: string,
  folderName: string,
  size: number,
): Promise<SkillRecord> {
  const record: SkillRecord = {
    name: folderName,
    layer: root.layer,
    file,
    dir,
    enabled: true,
    diagnostics: [],
  };
  const skip = (code: string, message: string) =>
    record.diagnostics.push({
      stage: "skills",
      severity: "error",
      code,
      source: SKILLS_SOURCE,
      layer: root.layer,
      item: folderName,
      file,
      message,
    });
  if (size > MAX_SKILL_FILE_BYTES) {
    skip(
      "skill_too_large",
      `${file} has ${size} bytes (at most ${MAX_SKILL_FILE_BYTES}); the skill is skipped.`,
    );
    return record;
  }
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    skip(
      "skill_unreadable",
      `${file} cannot be read: ${errorMessage(error)}; the skill is skipped.`,
    );
    return record;
  }
  const parsed = parseSkillFile(text, { file, folderName });
  if (!parsed.ok) {
    record.diagnostics.push({ ...parsed.diagnostic, layer: root.layer });
    return record;
  }
  record.name = parsed.skill.name;
  record.document = parsed.skill;
  record.diagnostics.push(...parsed.warnings.map((warning) => ({ ...warning, layer: root.layer })));
  return record;
}

function codeRecord(skill: CodeSkill, workspace: string): SkillRecord {
  const name = typeof skill.name === "string" ? skill.name.trim() : "";
  const record: SkillRecord = { name, layer: "code", enabled: true, diagnostics: [] };
  const report = (severity: "error" | "warning", code: string, message: string) =>
    record.diagnostics.push({
      stage: "skills",
      severity,
      code,
      source: SKILLS_SOURCE,
      layer: "code",
      item: name || "(unnamed)",
      message,
    });
  const description = typeof skill.description === "string" ? skill.description.trim() : "";
  if (name === "" || description === "") {
    report(
      "error",
      name === "" ? "skill_name_missing" : "skill_description_missing",
      `A skill defined in code needs a name and a description (${name === "" ? "name" : "description"} is missing); it is skipped.`,
    );
    return record;
  }
  const problem = skillNameProblem(name);
  if (problem)
    report(
      "warning",
      "skill_name_invalid",
      `The code skill name "${name}" ${problem}; loaded anyway.`,
    );
  if (skill.dir) record.dir = path.resolve(workspace, skill.dir);
  if (skill.scripts)
    record.scriptFiles = skill.scripts.map((file) => path.resolve(workspace, file));
  record.document = {
    name,
    description,
    body: typeof skill.body === "string" ? skill.body : "",
    fields: {},
    allowedTools: splitAllowedTools(skill.allowedTools) ?? [],
    modelInvocable: skill.disableModelInvocation !== true,
  };
  return record;
}

function conflict(loser: SkillRecord, winner: SkillRecord): Diagnostic {
  const where = (record: SkillRecord) => record.file ?? "code";
  const sameLayer = loser.layer === winner.layer;
  return {
    stage: "skills",
    severity: sameLayer ? "warning" : "info",
    code: sameLayer ? "skill_duplicate" : "skill_shadowed",
    source: SKILLS_SOURCE,
    layer: loser.layer,
    item: loser.name,
    ...(loser.file ? { file: loser.file } : {}),
    message: sameLayer
      ? `Two ${loser.layer} skills are named "${loser.name}": ${where(winner)} wins (earlier in the lookup order), ${where(loser)} is ignored.`
      : `The ${winner.layer} skill "${winner.name}" (${where(winner)}) replaces the ${loser.layer} skill of the same name (${where(loser)}).`,
  };
}
