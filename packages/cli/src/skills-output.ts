import type { SkillInfo } from "@pseudoclaude/plugin-skills";
import { diagnosticsToJson } from "./json-output.js";

/** One skill of `skills --json`. */
export function skillToJson(skill: SkillInfo) {
  return {
    name: skill.name,
    description: skill.description,
    layer: skill.layer,
    path: skill.path ?? null,
    dir: skill.dir ?? null,
    state: skill.state,
    model_invocable: skill.modelInvocable,
    allowed_tools: skill.allowedTools,
    permissions: skill.permissions,
    allowed_tools_honoured: skill.allowedToolsHonoured,
    tools: skill.tools,
    diagnostics: diagnosticsToJson(skill.diagnostics),
  };
}
