import type { LoadedConfig } from "@pseudoclaude/core";
import type { ConsentSubject } from "@pseudoclaude/core/consent";
import { realFolder } from "@pseudoclaude/core/files";
import { scanSkills } from "../discovery/scan-skills.js";
import { skillRoots } from "../discovery/skill-roots.js";
import { loadSkillsSettings } from "../settings/load-skills-settings.js";
import type { SkillsOptions } from "../settings/skills-settings.js";
import { skillPermissions, skillSubject } from "./skill-permissions.js";

/**
 * The project skills whose `allowed-tools` wait for the user's approval, found the way the
 * plugin finds them, without loading or running any.
 */
export async function projectSkillRequests(
  config: LoadedConfig,
  workspace: string,
  homeDir: string,
  options: SkillsOptions,
): Promise<ConsentSubject[]> {
  const { settings } = loadSkillsSettings(config, { workspace, code: options });
  const real = realFolder(workspace);
  const scan = await scanSkills(skillRoots(real, homeDir, settings), [], settings, real);
  return scan.skills.flatMap((record) => {
    if (!record.document || record.layer !== "project") return [];
    const permissions = skillPermissions(record, settings);
    return !permissions.honoured && permissions.patterns.length > 0
      ? [skillSubject(record.name, permissions.patterns)]
      : [];
  });
}
