import { isDeepStrictEqual } from "node:util";
import { UsageError } from "@pseudoclaude/core";
import { errorMessage } from "@pseudoclaude/core/plugin";
import type { SkillRecord } from "../discovery/skill-record.js";
import { parseSkillFile } from "../format/parse-skill-file.js";
import type { SkillDocument } from "../format/skill-document.js";
import type { SkillsUsageErrorCode } from "../skills-errors.js";

const SKILL_FILE = "SKILL.md";

/**
 * Read a catalog skill's SKILL.md (its layer checks size and digest against the listing), parse
 * it with the same rules as a skill folder's, and compare its front matter field by field with
 * the listed one: a difference means the user was shown one skill and the model would get
 * another, so it is refused like a digest mismatch. Nothing of a refused skill is used.
 */
export async function fetchRemoteSkill(
  record: SkillRecord,
  signal: AbortSignal,
): Promise<SkillDocument> {
  const remote = record.remote;
  if (!remote || !record.document)
    throw new UsageError<SkillsUsageErrorCode>(
      "skill_invalid",
      `Skill "${record.name}" is not from a catalog layer.`,
    );
  const { layer, entry } = remote;
  const where = `Skill "${record.name}" (${layer.origin}, ${entry.location})`;
  let text: string;
  try {
    text = await layer.readFile(entry.key, SKILL_FILE, signal);
  } catch (error) {
    throw new UsageError<SkillsUsageErrorCode>(
      "skill_verification_failed",
      `${where} was not loaded: ${errorMessage(error)}`,
      { cause: error, details: { skill: record.name, layer: layer.id } },
    );
  }
  const parse = parseSkillFile(text, {
    file: entry.location,
    folderName: entry.key.split("/").at(-1) ?? entry.key,
  });
  if (!parse.ok)
    throw new UsageError<SkillsUsageErrorCode>(
      "skill_invalid",
      `${where} was not loaded: ${parse.diagnostic.message}`,
      { details: { skill: record.name, layer: layer.id } },
    );
  const differences = frontMatterDifferences(entry.frontmatter, parse.skill.fields);
  if (differences.length > 0)
    throw new UsageError<SkillsUsageErrorCode>(
      "skill_verification_failed",
      `${where} was not loaded: its SKILL.md front matter differs from what the server listed (${differences.join("; ")}).`,
      { details: { skill: record.name, layer: layer.id, differences } },
    );
  return { ...parse.skill, name: record.name };
}

/** Each field whose value differs, as `field: listed … , file …`. */
function frontMatterDifferences(
  listed: Readonly<Record<string, unknown>>,
  read: Readonly<Record<string, unknown>>,
): string[] {
  const keys = new Set([...Object.keys(listed), ...Object.keys(read)]);
  return [...keys]
    .filter((key) => !isDeepStrictEqual(listed[key] ?? null, read[key] ?? null))
    .map(
      (key) =>
        `${key}: listed ${JSON.stringify(listed[key] ?? null)}, file ${JSON.stringify(read[key] ?? null)}`,
    );
}
