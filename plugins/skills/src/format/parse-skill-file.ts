import {
  frontMatterPosition,
  readFrontMatter,
  splitAllowedTools,
} from "@pseudoclaude/compat-claude-code";
import type { Diagnostic } from "@pseudoclaude/core";
import { isPlainObject } from "@pseudoclaude/core/plugin";
import type { SkillDocument } from "./skill-document.js";
import { skillNameProblem } from "./skill-name.js";

export const SKILLS_SOURCE = "skills";
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

export type SkillParse =
  | { ok: true; skill: SkillDocument; warnings: Diagnostic[] }
  | { ok: false; diagnostic: Diagnostic };

/**
 * Read one SKILL.md. Lenient where the format allows (a bad name, an odd optional field: a
 * warning, the skill still loads), strict where it matters: front matter that does not parse,
 * or no description, skips the skill with a diagnostic at its file, line and column. "Does not
 * parse" means as Claude Code reads it (`readFrontMatter`: strict YAML, then its retry with
 * YAML-special values quoted), so skills written for Claude Code load here too.
 */
export function parseSkillFile(
  text: string,
  where: { file: string; folderName: string },
): SkillParse {
  const { file, folderName } = where;
  const at = (line: number, column: number) => ({ file, line, column });
  const skip = (code: string, message: string, line = 1, column = 1): SkillParse => ({
    ok: false,
    diagnostic: {
      stage: "skills",
      severity: "error",
      code,
      source: SKILLS_SOURCE,
      item: folderName,
      ...at(line, column),
      message: `${message}; the skill is skipped.`,
    },
  });
  // Claude Code's reading: strict YAML, then its lenient retry (`description: Use when: …`).
  const read = readFrontMatter(text);
  if (read.kind === "missing") {
    return skip(
      "skill_no_front_matter",
      `${file} does not start with YAML front matter (a "---" line, name and description, "---")`,
    );
  }
  if (read.kind === "unclosed") {
    return skip(
      "skill_front_matter_unclosed",
      `${file}: the front matter opens with "---" but never closes`,
    );
  }
  if (read.kind === "invalid") {
    return skip(
      "skill_yaml_error",
      `${file}:${read.line}:${read.column}: the front matter is not valid YAML (${read.message}), not even with Claude Code's quoting of special characters`,
      read.line,
      read.column,
    );
  }
  const { data, body } = read.frontMatter;
  if (!isPlainObject(data)) {
    return skip("skill_not_mapping", `${file}: the front matter must be a mapping (key: value)`, 2);
  }
  const locate = (key: string) => {
    const position = frontMatterPosition(read.frontMatter, key);
    return position ? at(position.line, position.column) : at(1, 1);
  };
  const warnings: Diagnostic[] = [];
  const warn = (key: string, code: string, message: string) =>
    warnings.push({
      stage: "skills",
      severity: "warning",
      code,
      source: SKILLS_SOURCE,
      item: folderName,
      ...locate(key),
      message,
    });

  const description = typeof data.description === "string" ? data.description.trim() : "";
  if (description === "") {
    const position = "description" in data ? locate("description") : at(1, 1);
    return skip(
      "skill_description_missing",
      `${file}: "description" is ${"description" in data ? "empty or not text" : "missing"} (it says what the skill does and when to use it)`,
      position.line,
      position.column,
    );
  }
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    warn(
      "description",
      "skill_field_invalid",
      `${file}: "description" has ${description.length} characters (at most ${MAX_DESCRIPTION_LENGTH}); the index shows the first ${MAX_DESCRIPTION_LENGTH}.`,
    );
  }

  let name = folderName;
  if (typeof data.name !== "string" || data.name.trim() === "") {
    warn(
      "name",
      "skill_name_missing",
      `${file}: "name" is missing; the folder's name "${folderName}" is used.`,
    );
  } else {
    name = data.name.trim();
    const problem = skillNameProblem(name);
    if (problem)
      warn("name", "skill_name_invalid", `${file}: the name "${name}" ${problem}; loaded anyway.`);
    else if (name !== folderName)
      warn(
        "name",
        "skill_name_mismatch",
        `${file}: the name "${name}" differs from its folder "${folderName}"; loaded as "${name}".`,
      );
  }

  const skill: SkillDocument = {
    name,
    description,
    body,
    fields: data,
    allowedTools: [],
    modelInvocable: data["disable-model-invocation"] !== true,
  };
  if (data.license !== undefined) {
    if (typeof data.license === "string") skill.license = data.license;
    else warn("license", "skill_field_invalid", `${file}: "license" should be text; ignored.`);
  }
  if (data.compatibility !== undefined) {
    if (typeof data.compatibility !== "string")
      warn(
        "compatibility",
        "skill_field_invalid",
        `${file}: "compatibility" should be text; ignored.`,
      );
    else {
      skill.compatibility = data.compatibility;
      if (data.compatibility.length > MAX_COMPATIBILITY_LENGTH)
        warn(
          "compatibility",
          "skill_field_invalid",
          `${file}: "compatibility" has ${data.compatibility.length} characters (at most ${MAX_COMPATIBILITY_LENGTH}).`,
        );
    }
  }
  if (data.metadata !== undefined) {
    if (!isPlainObject(data.metadata))
      warn(
        "metadata",
        "skill_field_invalid",
        `${file}: "metadata" should be a mapping of text to text; ignored.`,
      );
    else {
      const metadata: Record<string, string> = {};
      const odd: string[] = [];
      for (const [key, value] of Object.entries(data.metadata)) {
        if (typeof value === "string") metadata[key] = value;
        else {
          odd.push(key);
          metadata[key] = typeof value === "object" ? JSON.stringify(value) : String(value);
        }
      }
      if (odd.length > 0)
        warn(
          "metadata",
          "skill_field_invalid",
          `${file}: "metadata" values should be text (${odd.join(", ")} ${odd.length === 1 ? "is" : "are"} not); kept as text.`,
        );
      skill.metadata = metadata;
    }
  }
  const allowed = splitAllowedTools(data["allowed-tools"]);
  if (allowed === undefined)
    warn(
      "allowed-tools",
      "skill_field_invalid",
      `${file}: "allowed-tools" should be a space-separated string or a list of strings; ignored.`,
    );
  else skill.allowedTools = allowed;
  return { ok: true, skill, warnings };
}
