import { UsageError } from "@pseudoclaude/core";
import type { SkillRecord } from "../discovery/skill-record.js";
import type { SkillDocument } from "../format/skill-document.js";
import type { SkillsUsageErrorCode } from "../skills-errors.js";
import type { SkillInfo, SkillLoader } from "./skills-manager.js";

/** The records a name was looked up in, and the skills to name when it matches none. */
export interface SkillLookup {
  /** The first record of that name, readable or not. */
  first: SkillRecord | undefined;
  /** The readable record that wins the name (its lookup order's first). */
  winner: SkillRecord | undefined;
  /** Every skill now; read only to tell what could be loaded instead. */
  skills: () => readonly SkillInfo[];
}

/**
 * The record that `by` may load as `name`; otherwise the UsageError that says why not: no skill
 * has that name, it could not be read, config disabled it, or only a person or code may load it.
 */
export function loadableRecord(
  name: string,
  by: SkillLoader,
  lookup: SkillLookup,
): SkillRecord & { document: SkillDocument } {
  const record = lookup.first;
  const known = () =>
    lookup
      .skills()
      .filter((skill) => skill.state === "available" || skill.state === "loaded")
      .map((skill) => skill.name)
      .join(", ") || "none";
  if (!record)
    throw new UsageError<SkillsUsageErrorCode>(
      "unknown_skill",
      `No skill is named "${name}" (skills: ${known()}).`,
      {
        details: { skill: name },
      },
    );
  const winner = lookup.winner;
  if (!winner?.document)
    throw new UsageError<SkillsUsageErrorCode>(
      "skill_invalid",
      `Skill "${name}" could not be read: ${record.diagnostics.map((diagnostic) => diagnostic.message).join(" ")}`,
      { details: { skill: name } },
    );
  if (!winner.enabled)
    throw new UsageError<SkillsUsageErrorCode>(
      "skill_disabled",
      `Skill "${name}" is disabled by config (skills.enabled / skills.disabled).`,
      {
        details: { skill: name },
      },
    );
  if (by === "model" && !winner.document.modelInvocable)
    throw new UsageError<SkillsUsageErrorCode>(
      "skill_not_model_invocable",
      `Skill "${name}" has disable-model-invocation: true; only a person or code can load it.`,
      { details: { skill: name } },
    );
  return winner as SkillRecord & { document: SkillDocument };
}
