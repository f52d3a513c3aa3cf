import { mapAllowedTool } from "@pseudoclaude/compat-claude-code";
import type { Diagnostic } from "@pseudoclaude/core";
import {
  type ConsentSubject,
  consentSubject,
  type WorkspaceConsent,
} from "@pseudoclaude/core/consent";
import type { PolicyLayer } from "@pseudoclaude/core/plugin";
import type { SkillRecord } from "../discovery/skill-record.js";
import { SKILLS_SOURCE } from "../format/parse-skill-file.js";
import type { SkillsSettings } from "../settings/skills-settings.js";
import { SKILL_META_TOOLS } from "../tools/skill-tool-names.js";

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
  /** The user's approvals for the workspace (`pseudoclaude trust approve skill:NAME`). */
  consent?: WorkspaceConsent,
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
  if (record.remote) {
    // A served skill asks for access on a stranger's word: only the user's own approval of its
    // layer (or a layer code marked trusted) lets its allowed-tools count.
    const honoured = record.remote.layer.trusted || settings.trusted.includes(record.layer);
    if (!honoured && patterns.length > 0)
      diagnostics.push(
        diagnostic(
          "skill_allowed_tools_untrusted",
          `Skill "${record.name}" from ${record.remote.layer.origin} asks to pre-approve ${patterns.join(", ")}; ignored, since a served skill pre-approves nothing until you approve that server's skills in your user config (skills.trusted: [${record.layer}]).`,
        ),
      );
    return { patterns: [...new Set(patterns)], honoured, diagnostics };
  }
  const honoured =
    record.layer !== "project" ||
    settings.trustProjectAllowedTools ||
    settings.trusted.includes(record.name) ||
    (patterns.length > 0 && !!consent?.isApproved(skillSubject(record.name, patterns)));
  if (!honoured && patterns.length > 0)
    diagnostics.push(
      diagnostic(
        "skill_allowed_tools_untrusted",
        `Project skill "${record.name}" asks to pre-approve ${patterns.join(", ")}; ignored, since a project skill comes with the repository. To honour it, approve it for this workspace (pseudoclaude trust approve skill:${record.name}) or trust it in your user config (skills.trusted: [${record.name}], or skills.trust_project_allowed_tools: true).`,
      ),
    );
  return { patterns: [...new Set(patterns)], honoured, diagnostics };
}

/**
 * The policy layer of a loaded skill: its pre-approvals when they are honoured, and in
 * `restrict` mode a narrowing to its allowed tools, its own scripts and the skill tools.
 * Narrowing is safe even for an untrusted skill, since it can only take tools away.
 */
export function skillPolicyLayer(
  name: string,
  permissions: SkillPermissions,
  tools: readonly string[],
  settings: Pick<SkillsSettings, "allowedToolsMode">,
): PolicyLayer | undefined {
  const layer: PolicyLayer = { origin: `skill:${name}` };
  if (permissions.honoured && permissions.patterns.length > 0) layer.allow = permissions.patterns;
  if (settings.allowedToolsMode === "restrict")
    layer.only = [...new Set([...permissions.patterns, ...SKILL_META_TOOLS, ...tools])];
  return layer.allow || layer.only ? layer : undefined;
}

/** A project skill's pre-approved tools as a consent subject: other tools ask again. */
export function skillSubject(name: string, patterns: readonly string[]): ConsentSubject {
  return consentSubject({
    kind: "skill",
    name,
    covers: { allowed_tools: [...new Set(patterns)] },
    summary: `skill ${name}: allowed-tools ${[...new Set(patterns)].join(", ")}`,
    effects: [
      `runs ${[...new Set(patterns)].join(", ")} with no question while the skill is loaded`,
    ],
  });
}
