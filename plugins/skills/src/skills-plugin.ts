import { definePlugin, type Plugin } from "@pseudoclaude/core";
import { realFolder } from "@pseudoclaude/core/files";
import { reportUnknownOptions, SkillCatalog } from "@pseudoclaude/core/plugin";
import { createProcessRunner } from "@pseudoclaude/core/process";
import { DefaultSkillsManager } from "./manager/default-skills-manager.js";
import { projectSkillRequests } from "./manager/skill-requests.js";
import { SkillsManager } from "./manager/skills-manager.js";
import { loadSkillsSettings } from "./settings/load-skills-settings.js";
import { SKILLS_SECTION_SPEC } from "./settings/skills-section.js";
import { SKILLS_OPTION_KEYS, type SkillsOptions } from "./settings/skills-settings.js";
import { SkillsToolSource } from "./source/skills-tool-source.js";

export const SKILLS_PLUGIN_NAME = "skills";

/**
 * Agent Skills as a tool source: the model sees a short index of the skills found in the
 * project, user and configured folders (and those given in code), loads one's full procedure
 * with `load_skill` only when the task needs it, and gets that skill's scripts as tools while
 * it is loaded. Skills other plugins add to the kernel's `SkillCatalog` (an MCP server's, as
 * `mcp:<server>/<skill>`) join the index after the folders', read and checked when loaded. Everything goes through the agent's one registry, policy and system prompt.
 */
export function skills(options: SkillsOptions = {}): Plugin {
  return definePlugin({
    name: SKILLS_PLUGIN_NAME,
    sections: [SKILLS_SECTION_SPEC],
    trust: {
      widening: [
        {
          setting: "allowed-tools of a project skill (SKILL.md)",
          kind: "skill",
          effect: "pre-approves tool calls while the skill is loaded",
        },
      ],
      requests: ({ config, workspace, homeDir }) =>
        projectSkillRequests(config, workspace, options.homeDir ?? homeDir, options),
    },
    register(context) {
      reportUnknownOptions(context, options, SKILLS_OPTION_KEYS, "skills()");
      const { settings, diagnostics } = loadSkillsSettings(context.config, {
        workspace: context.workspace,
        code: options,
      });
      for (const diagnostic of diagnostics) context.report(diagnostic);
      // Built and passed by hand: the runner and the source are this plugin's own parts.
      const runner = createProcessRunner();
      let manager: DefaultSkillsManager | undefined;
      const source = new SkillsToolSource({
        start: () => manager?.start(),
        close: async () => {
          manager?.close();
          await runner.close();
        },
      });
      // Skills other plugins bring (an MCP server's) come through the kernel's catalog.
      const catalog = context.container.isRegistered(SkillCatalog, true)
        ? context.container.resolve<SkillCatalog>(SkillCatalog)
        : undefined;
      manager = new DefaultSkillsManager({
        ...(catalog ? { catalog } : {}),
        workspace: realFolder(context.workspace),
        ...(options.homeDir ? { home: options.homeDir } : {}),
        settings,
        consent: context.consent,
        codeSkills: options.skills ?? [],
        source,
        runner,
        addPolicyLayer: (layer) => context.addPolicyLayer(layer),
        addSystemPromptSection: (section) => context.addSystemPromptSection(section),
        report: (diagnostic) => context.report(diagnostic),
      });
      source.countWith(() => manager.counts());
      // A run starts once the catalog's listings in flight are in the index (servers connect
      // while the agent starts; their listing follows the connection).
      if (catalog) context.addHooks({ beforeRun: async () => void (await manager.settled()) });
      context.addToolSource(source);
      context.container.registerInstance(SkillsManager, manager);
    },
  });
}
