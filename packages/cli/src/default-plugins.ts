import type { Plugin } from "@pseudoclaude/core";
import { providerSectionPlugin } from "@pseudoclaude/core/provider";
import { agents } from "@pseudoclaude/plugin-agents";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { hooks } from "@pseudoclaude/plugin-hooks";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { skills } from "@pseudoclaude/plugin-skills";

/** What a command changes in the default plugins. */
export interface DefaultPluginOptions {
  /**
   * The command renders MCP Apps (`studio`): the MCP plugin tells servers so (the
   * `io.modelcontextprotocol/ui` extension), and servers may then offer their app views.
   */
  mcpAppHost?: boolean | undefined;
}

/**
 * The plugins every `pseudoclaude` command starts with, before any `--plugin`. A function so
 * each agent gets fresh instances.
 */
export function defaultPlugins(options: DefaultPluginOptions = {}): Plugin[] {
  return [
    mcp(options.mcpAppHost ? { appHost: {} } : {}),
    builtinTools(),
    skills(),
    hooks(),
    agents(),
    providerSectionPlugin(),
  ];
}
