import type { SkillRecord } from "../discovery/skill-record.js";
import type { SkillPermissions } from "./skill-permissions.js";
import type { SkillInfo } from "./skills-manager.js";

/**
 * One skill as code and the CLI see it: what discovery found, what its allowed-tools mean here,
 * and its state. `loaded` is the skill's entry while this record is the one loaded under its
 * name (a record that lost to another of the same name is never `loaded`).
 */
export function skillInfo(
  record: SkillRecord,
  permissions: SkillPermissions | undefined,
  loaded: { tools: readonly string[] } | undefined,
): SkillInfo {
  const document = record.document;
  const state = !document
    ? "invalid"
    : !record.enabled
      ? "disabled"
      : loaded
        ? "loaded"
        : "available";
  const info: SkillInfo = {
    name: record.name,
    description: document?.description ?? "",
    layer: record.layer,
    state,
    modelInvocable: document?.modelInvocable ?? false,
    allowedTools: document?.allowedTools ?? [],
    permissions: permissions?.patterns ?? [],
    allowedToolsHonoured:
      (permissions?.honoured ?? false) && (permissions?.patterns.length ?? 0) > 0,
    tools: loaded?.tools ?? [],
    fields: document?.fields ?? {},
    diagnostics: record.diagnostics,
  };
  if (record.file) info.path = record.file;
  if (record.remote) info.origin = record.remote.layer.origin;
  if (record.dir) info.dir = record.dir;
  return info;
}
