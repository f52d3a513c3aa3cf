import type { Diagnostic } from "@pseudoclaude/core";
import type { SkillRecord } from "../discovery/skill-record.js";
import { mapAllowedTool } from "../format/allowed-tools.js";
import { SKILLS_SOURCE } from "../format/parse-skill-file.js";
import type { SkillsSettings } from "../settings/skills-settings.js";

/** What a skill's `allowed-tools` mean here, and whether they may pre-approve anything. */
export interface SkillPermissions {
  /** Our permission patterns, in the order written. */
  patterns: string[];
  /** Pre-approval is honoured: code and user skills, and project skills the user trusts. */
  honoured: boolean;
  diagnostics: Diagnostic[];
}

/**
 * Map a skill's `allowed-tools` to our patterns. An entry that maps to nothing is a
 * diagnostic. A project skill arrives with a cloned repository, so its entries pre-approve
 * nothing unless the user's own config trusts it; that is said in a diagnostic too.
 */
export function skillPermissions(
  record: SkillRecord,
  settings: Pick<SkillsSettings, "trustProjectAllowedTools" | "trusted">,
): SkillPermissions {
  const entries = record.document?.allowedTools ?? [];
  const patterns: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const diagnostic = (code: string, message: string): Diagnostic => ({
    stage: "skills",
    severity: "warning",
    code,
    source: SKILLS_SOURCE,
    layer: record.layer,
    item: record.name,
    ...(record.file ? { file: record.file } : {}),
    message,
  });
  for (const entry of entries) {
    const mapped = mapAllowedTool(entry);
    if ("pattern" in mapped) patterns.push(mapped.pattern);
    else
      diagnostics.push(
        diagnostic(
          "skill_allowed_tool_unmapped",
          `Skill "${record.name}": allowed-tools entry "${entry}" ${mapped.problem}; it is ignored.`,
        ),
      );
  }
  const honoured =
    record.layer !== "project" ||
    settings.trustProjectAllowedTools ||
    settings.trusted.includes(record.name);
  if (!honoured && patterns.length > 0)
    diagnostics.push(
      diagnostic(
        "skill_allowed_tools_untrusted",
        `Project skill "${record.name}" asks to pre-approve ${patterns.join(", ")}; ignored, since a project skill comes with the repository. To honour it, trust it in your user config (skills.trusted: [${record.name}], or skills.trust_project_allowed_tools: true).`,
      ),
    );
  return { patterns: [...new Set(patterns)], honoured, diagnostics };
}
