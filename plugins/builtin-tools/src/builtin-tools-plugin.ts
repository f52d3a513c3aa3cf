import { definePlugin, type Plugin } from "@pseudoclaude/core";
import { createPathGuard, realFolder } from "@pseudoclaude/core/files";
import { reportUnknownOptions, StaticToolSource } from "@pseudoclaude/core/plugin";
import { createCommandRunner } from "./process/command-runner.js";
import { BUILTIN_TOOLS_SECTION_SPEC } from "./settings/builtin-tools-section.js";
import {
  BUILTIN_TOOLS_OPTION_KEYS,
  type BuiltinToolsOptions,
} from "./settings/builtin-tools-settings.js";
import {
  BUILTIN_TOOLS_WIDENING,
  builtinToolsConsentRequest,
  loadBuiltinToolsSettings,
} from "./settings/load-settings.js";
import { createBuiltinTools } from "./tools/builtin-tool-list.js";
import { BUILTIN_SOURCE_ID } from "./tools/tool-kit.js";

export const BUILTIN_TOOLS_PLUGIN_NAME = "builtin-tools";

/**
 * The local tools a coding agent needs - read_file, list_dir, glob, grep (read-only) and
 * write_file, edit_file, run_command (side effects) - as one ordinary tool source `builtin`,
 * so they go through the same registry, policy, timeout and events as any other tool.
 * Every path is confined to the workspace and the configured extra roots.
 */
export function builtinTools(options: BuiltinToolsOptions = {}): Plugin {
  return definePlugin({
    name: BUILTIN_TOOLS_PLUGIN_NAME,
    sections: [BUILTIN_TOOLS_SECTION_SPEC],
    trust: {
      widening: BUILTIN_TOOLS_WIDENING,
      requests: ({ config }) => {
        const subject = builtinToolsConsentRequest(config);
        return subject ? [subject] : [];
      },
    },
    register(context) {
      reportUnknownOptions(context, options, BUILTIN_TOOLS_OPTION_KEYS, "builtinTools()");
      const { settings, diagnostics } = loadBuiltinToolsSettings(context.config, {
        workspace: context.workspace,
        code: options,
        consent: context.consent,
      });
      for (const diagnostic of diagnostics) context.report(diagnostic);
      // Every tool process gets the config's `env`; this section's own `env` is narrower
      // (commands only) and wins over it.
      const env = { ...context.toolEnv, ...settings.env };
      if (Object.keys(env).length > 0) settings.env = env;
      const guard = createPathGuard(realFolder(context.workspace), settings.extraRoots);
      // Built and passed by hand: they are this plugin's parts, not services others replace.
      const commands = createCommandRunner();
      const tools = createBuiltinTools({ guard, settings, commands });
      // Closing the source ends every command still running.
      context.addToolSource(
        new StaticToolSource(BUILTIN_SOURCE_ID, tools, { close: () => commands.close() }),
      );
    },
  });
}
